import { useEffect, useState } from 'react';
import type { ContactExportFormat } from '@asistente/contracts';
import { useLocation, useSearch } from 'wouter';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { useDebounced } from '../../lib/use-debounced';
import { usePermissions } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import {
  deleteContact,
  deleteContacts,
  deletePermissions,
  exportContacts,
  exportSelection,
  restoreContacts,
  tagContacts,
  type ContactSelection,
} from './api';
import { BulkBar } from './BulkBar';
import { BulkTagDialog } from './BulkTagDialog';
import { ContactModal } from './ContactModal';
import { ContactsFilters } from './ContactsFilters';
import { ContactStatsCards } from './ContactStatsCards';
import { ContactsTable } from './ContactsTable';
import { ExportDialog } from './ExportDialog';
import { ImportModal } from './ImportModal';
import { SavedViews } from './SavedViews';
import { fullName, type Contact } from './types';
import { useContactList } from './use-contact-list';
import { useContactMeta } from './use-contact-meta';
import { useBulkRun } from './use-bulk-run';
import { useListUrl } from './use-list-url';
import { useSelection } from './use-selection';
import './contacts.css';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'delete'; selection: ContactSelection; count: number }
  | { kind: 'delete-one'; contact: Contact }
  | { kind: 'tag'; selection: ContactSelection; count: number }
  | { kind: 'import' }
  | { kind: 'export'; picked?: { selection: ContactSelection; count: number } }
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
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleting, setDeleting] = useState(false);
  const [undo, setUndo] = useState<{ tokens: string[]; count: number } | null>(null);
  const mayDelete = usePermissions(deletePermissions);
  const list = useContactList({ page, search, tag, order }, version);
  const meta = useContactMeta(version);
  const contacts = list.data?.contacts ?? [];
  const total = list.data?.total ?? 0;
  const selection = useSelection(`${search}|${tag}|${order}|${version}`);
  const bulk = useBulkRun();
  const selectedCount = selection.allMatching ? total : selection.ids.size;
  const pagePicked = contacts.length > 0 && contacts.every((c) => selection.ids.has(c.id));

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

  const reload = () => setVersion((v) => v + 1);

  /** What the bulk bar acts on: the picked ids, or every contact the search and tag match. */
  const picked = (): { selection: ContactSelection; count: number } =>
    selection.allMatching
      ? { selection: { filter: { ...(search ? { search } : {}), ...(tag ? { tag } : {}) } }, count: total }
      : { selection: { ids: [...selection.ids] }, count: selection.ids.size };

  // "Deshacer" is offered for a few seconds after a delete.
  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(null), UNDO_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const confirmDelete = async (target: ContactSelection, count: number) => {
    setDeleting(true);
    setDialog(null);
    try {
      // Each request is one transaction: a chunk goes whole, or not at all.
      const results = await bulk.run('Eliminando', target, count, deleteContacts);
      const deleted = results.reduce((n, r) => n + r.deleted, 0);
      toast.success(deleted === 1 ? 'Contacto eliminado' : `${deleted} contactos eliminados`);
      setUndo({ tokens: results.map((r) => r.undoToken), count: deleted });
      // Emptying the last page steps back to the previous one; a whole filter gone returns to the first.
      if (target.filter && page > 1) setPage(1, true);
      else if (deleted >= contacts.length && page > 1) setPage(page - 1, true);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setDeleting(false);
      setDialog(null);
      reload();
    }
  };

  // A role without bulk deletion still removes one contact at a time, for good.
  const confirmDeleteOne = async (contact: Contact) => {
    setDeleting(true);
    try {
      await deleteContact(contact.id);
      toast.success('Contacto eliminado');
      if (contacts.length === 1 && page > 1) setPage(page - 1, true);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setDeleting(false);
      setDialog(null);
      reload();
    }
  };

  // The row's delete: through the bulk route where the role allows it (it can be undone), else the single one.
  const onDeleteRow = mayDelete?.bulk
    ? (contact: Contact) => setDialog({ kind: 'delete', selection: { ids: [contact.id] }, count: 1 })
    : mayDelete?.one
      ? (contact: Contact) => setDialog({ kind: 'delete-one', contact })
      : undefined;

  const undoDelete = async () => {
    if (!undo) return;
    setUndo(null);
    try {
      let count = 0;
      for (const token of undo.tokens) count += (await restoreContacts(token)).count;
      toast.success(count === 1 ? 'Contacto restaurado' : `${count} contactos restaurados`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
    reload();
  };

  const download = async (format: ContactExportFormat) => {
    setDialog(null);
    try {
      const { blob, filename } = await exportContacts(search, tag, format);
      saveBlob(blob, filename ?? 'contactos.csv');
      toast.success('Contactos exportados');
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  const applyTags = async (target: ContactSelection, count: number, change: { add?: string[]; remove?: string[] }) => {
    setDialog(null);
    try {
      const results = await bulk.run(change.add ? 'Añadiendo etiqueta' : 'Quitando etiqueta', target, count, (part) => tagContacts(part, change));
      const changed = results.reduce((n, r) => n + r.count, 0);
      toast.success(changed === 1 ? '1 contacto actualizado' : `${changed} contactos actualizados`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
    reload();
  };

  const downloadSelection = async ({ selection: target, count }: { selection: ContactSelection; count: number }, format: ContactExportFormat) => {
    setDialog(null);
    try {
      // One file: the selection goes in one request, whatever its size.
      const [file] = await bulk.run('Exportando', target, count, (part) => exportSelection(part, format), { chunked: false });
      if (file) saveBlob(file.blob, file.filename ?? 'contactos.csv');
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
            <Button variant="secondary" onClick={() => setDialog({ kind: 'export' })}>
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
      <div className="contacts-layout">
      <SavedViews current={view} />
      <section className="card contacts-main" aria-label="Contactos">
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
        </div>
        {(selectedCount > 0 || bulk.progress) && (
          <BulkBar
            count={selectedCount}
            matching={pagePicked && total > contacts.length ? { total, capped: list.data?.totalCapped === true } : null}
            allMatching={selection.allMatching}
            progress={bulk.progress}
            onSelectAllMatching={selection.selectAllMatching}
            onClear={selection.clear}
            onTag={() => setDialog({ kind: 'tag', ...picked() })}
            onExport={() => setDialog({ kind: 'export', picked: picked() })}
            onDelete={mayDelete?.bulk ? () => setDialog({ kind: 'delete', ...picked() }) : undefined}
          />
        )}
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
            selected={selection.ids}
            busy={list.loading}
            onToggle={(index, shift) => selection.toggle(contacts, index, shift)}
            onToggleAll={() => selection.togglePage(contacts)}
            onEdit={(contact) => setDialog({ kind: 'edit', contact })}
            onDelete={onDeleteRow}
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
      </div>

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
          title={dialog.count === 1 ? 'Eliminar contacto' : 'Eliminar contactos'}
          message={
            dialog.count === 1
              ? '¿Estás seguro de que quieres eliminar este contacto?'
              : `¿Estás seguro de que quieres eliminar estos ${dialog.count.toLocaleString('es-ES')} contactos?`
          }
          confirmLabel={deleting ? 'Eliminando...' : 'Eliminar'}
          busy={deleting}
          onConfirm={() => void confirmDelete(dialog.selection, dialog.count)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete-one' && (
        <ConfirmDialog
          title="Eliminar contacto"
          message={`¿Estás seguro de que quieres eliminar a ${fullName(dialog.contact)}? No se podrá deshacer.`}
          confirmLabel={deleting ? 'Eliminando...' : 'Eliminar'}
          busy={deleting}
          onConfirm={() => void confirmDeleteOne(dialog.contact)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'tag' && (
        <BulkTagDialog
          count={dialog.count}
          tags={meta.tags}
          onApply={(change) => void applyTags(dialog.selection, dialog.count, change)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'import' && <ImportModal onClose={() => setDialog(null)} onImported={reload} />}
      {dialog?.kind === 'export' && (
        <ExportDialog
          count={dialog.picked?.count}
          onClose={() => setDialog(null)}
          onExport={(format) => void (dialog.picked ? downloadSelection(dialog.picked, format) : download(format))}
        />
      )}
    </>
  );
}
