import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { useDebounced } from '../../lib/use-debounced';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import { deleteContacts, exportContacts, restoreContacts } from './api';
import { ContactModal } from './ContactModal';
import { ContactsFilters } from './ContactsFilters';
import { ContactStatsCards } from './ContactStatsCards';
import { ContactsTable } from './ContactsTable';
import { ImportModal } from './ImportModal';
import type { Contact } from './types';
import { useContactList } from './use-contact-list';
import { useContactMeta } from './use-contact-meta';
import { useListUrl } from './use-list-url';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'delete'; ids: string[] }
  | { kind: 'import' }
  | null;

const SEARCH_DEBOUNCE_MS = 300;
/** How long "Deshacer" stays offered after a delete (the server keeps the rows longer). */
const UNDO_VISIBLE_MS = 8000;

export function ContactsPage() {
  const [, navigate] = useLocation();
  const wantsNew = new URLSearchParams(useSearch()).get('nuevo') === '1';
  const view = useListUrl();
  const { search, tag, page, order } = view;
  const [searchText, setSearchText] = useState(search);
  const typed = useDebounced(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const setPage = (next: number, replace = false) => view.update({ page: next }, replace);
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleting, setDeleting] = useState(false);
  const [undo, setUndo] = useState<{ token: string; count: number } | null>(null);
  const list = useContactList({ page, search, tag, order }, version);
  const meta = useContactMeta(version);
  const contacts = list.data?.contacts ?? [];
  const total = list.data?.total ?? 0;

  // The dashboard's "new contact" action lands here with ?nuevo=1.
  useEffect(() => {
    if (!wantsNew) return;
    setDialog({ kind: 'create' });
    navigate('/contacts', { replace: true });
  }, [wantsNew, navigate]);

  // What is typed reaches the URL once the typing pauses; a search changed by the back button reaches the box.
  useEffect(() => {
    if (typed !== search) view.update({ search: typed, page: 1 }, true);
  }, [typed]);
  useEffect(() => {
    if (search !== searchText.trim()) setSearchText(search);
  }, [search]);
  useEffect(() => setSelected(new Set()), [page, search, tag, order, version]);

  const reload = () => setVersion((v) => v + 1);

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () => setSelected((s) => (contacts.every((c) => s.has(c.id)) ? new Set() : new Set(contacts.map((c) => c.id))));

  // "Deshacer" is offered for a few seconds after a delete.
  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(null), UNDO_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const confirmDelete = async (ids: string[]) => {
    setDeleting(true);
    try {
      // One transaction: all of them go, or none.
      const { deleted, undoToken } = await deleteContacts(ids);
      toast.success(deleted === 1 ? 'Contacto eliminado' : `${deleted} contactos eliminados`);
      setUndo({ token: undoToken, count: deleted });
      // Emptying the last page steps back to the previous one.
      if (deleted >= contacts.length && page > 1) setPage(page - 1, true);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setDeleting(false);
      setDialog(null);
      reload();
    }
  };

  const undoDelete = async () => {
    if (!undo) return;
    setUndo(null);
    try {
      const { count } = await restoreContacts(undo.token);
      toast.success(count === 1 ? 'Contacto restaurado' : `${count} contactos restaurados`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
    reload();
  };

  const download = async () => {
    try {
      const { blob, filename } = await exportContacts(search, tag);
      saveBlob(blob, filename ?? 'contactos.csv');
      toast.success('Contactos exportados');
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  const filtering = search !== '' || tag !== '';

  return (
    <>
      <PageHeader
        title="Contactos"
        subtitle="Gestiona tus clientes y contactos de negocio"
        actions={
          <>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
              <Icon name="upload" size={18} />
              Importar
            </Button>
            <Button variant="secondary" onClick={download}>
              <Icon name="download" size={18} />
              Exportar
            </Button>
            <Button onClick={() => setDialog({ kind: 'create' })}>
              <Icon name="plus" size={18} />
              Nuevo Contacto
            </Button>
          </>
        }
      />
      <ContactStatsCards stats={meta.stats} />
      <section className="card" aria-label="Contactos">
        <div className="card-toolbar">
          <ContactsFilters
            search={searchText}
            onSearch={setSearchText}
            tag={tag}
            tags={meta.tags}
            onTag={(next) => view.update({ tag: next, page: 1 })}
            order={order}
            onOrder={(next) => view.update({ order: next, page: 1 })}
          />
          {selected.size > 0 && (
            <div className="bulk-actions">
              <span>{selected.size === 1 ? '1 seleccionado' : `${selected.size} seleccionados`}</span>
              <Button variant="danger" small onClick={() => setDialog({ kind: 'delete', ids: [...selected] })}>
                <Icon name="trash" size={16} />
                Eliminar seleccionados
              </Button>
            </div>
          )}
        </div>
        {list.failed && !list.data ? (
          <EmptyState
            title="No se pudieron cargar los contactos"
            description="Comprueba tu conexión e inténtalo de nuevo."
            action={
              <Button variant="secondary" onClick={reload}>
                Reintentar
              </Button>
            }
          />
        ) : !list.data ? (
          <p className="page-loading" role="status">
            Cargando contactos...
          </p>
        ) : contacts.length === 0 ? (
          <EmptyState
            icon={<Icon name="users" size={32} />}
            title={filtering ? 'No se encontraron contactos' : 'Aún no tienes contactos'}
            description={
              filtering ? 'Prueba con otra búsqueda o etiqueta.' : 'Crea tu primer contacto o importa tu lista desde un archivo CSV.'
            }
          />
        ) : (
          <ContactsTable
            contacts={contacts}
            selected={selected}
            busy={list.loading}
            onToggle={toggle}
            onToggleAll={toggleAll}
            onEdit={(contact) => setDialog({ kind: 'edit', contact })}
            onDelete={(contact) => setDialog({ kind: 'delete', ids: [contact.id] })}
          />
        )}
        {undo && (
          <div className="bulk-actions contacts-undo" role="status">
            <span>{undo.count === 1 ? 'Contacto eliminado' : `${undo.count} contactos eliminados`}</span>
            <Button variant="secondary" small onClick={undoDelete}>
              Deshacer
            </Button>
          </div>
        )}
        {list.data?.totalCapped && (
          <p className="contacts-capped" role="status">
            Más de {total.toLocaleString('es-ES')} contactos coinciden: afina la búsqueda para ver el resto.
          </p>
        )}
        {list.data && <Pagination page={list.data.page} pageSize={list.data.limit} total={total} onPage={setPage} />}
      </section>

      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <ContactModal
          contact={dialog.kind === 'edit' ? dialog.contact : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            reload();
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={dialog.ids.length === 1 ? 'Eliminar contacto' : 'Eliminar contactos'}
          message={
            dialog.ids.length === 1
              ? '¿Estás seguro de que quieres eliminar este contacto?'
              : `¿Estás seguro de que quieres eliminar estos ${dialog.ids.length} contactos?`
          }
          confirmLabel={deleting ? 'Eliminando...' : 'Eliminar'}
          busy={deleting}
          onConfirm={() => void confirmDelete(dialog.ids)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'import' && <ImportModal onClose={() => setDialog(null)} onImported={reload} />}
    </>
  );
}
