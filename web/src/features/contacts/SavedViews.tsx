import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { createView, deleteView, listViews, type ContactView } from './api';
import { listHref, orderOf, type ListView } from './use-list-url';

const hrefOf = (view: ContactView) => listHref({ search: view.search, tag: view.tag, order: orderOf(view.sort, view.order) });

/** The contacts screen's sidebar: named searches (search + tag + sort) one click away. */
export function SavedViews({ current }: { current: ListView }) {
  const [views, setViews] = useState<ContactView[] | null>(null);
  const [saving, setSaving] = useState(false);
  const here = listHref({ ...current, page: 1 });

  const load = () => listViews().then(setViews, () => setViews([]));
  useEffect(() => void load(), []);

  const remove = async (view: ContactView) => {
    try {
      await deleteView(view.id);
      toast.success('Vista eliminada');
    } catch (err) {
      toast.error(errorMessage(err));
    }
    void load();
  };

  return (
    <aside className="card contacts-views" aria-labelledby="vistas-guardadas">
      <h2 id="vistas-guardadas" className="card-title">
        Vistas guardadas
      </h2>
      {views === null ? (
        <p className="muted">Cargando vistas...</p>
      ) : views.length === 0 ? (
        <p className="muted">Guarda una búsqueda con su etiqueta y orden para volver a ella con un clic.</p>
      ) : (
        <ul className="views-list">
          {views.map((view) => {
            const href = hrefOf(view);
            return (
              <li key={view.id}>
                <Link href={href} className={href === here ? 'view-link active' : 'view-link'} aria-current={href === here ? 'page' : undefined}>
                  {view.name}
                </Link>
                <button type="button" className="icon-btn icon-btn-danger" aria-label={`Eliminar vista ${view.name}`} title="Eliminar vista" onClick={() => void remove(view)}>
                  <Icon name="trash" size={16} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Button variant="secondary" small onClick={() => setSaving(true)}>
        <Icon name="plus" size={16} />
        Guardar vista
      </Button>
      {saving && (
        <SaveViewDialog
          current={current}
          onClose={() => setSaving(false)}
          onSaved={() => {
            setSaving(false);
            void load();
          }}
        />
      )}
    </aside>
  );
}

function SaveViewDialog({ current, onClose, onSaved }: { current: ListView; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('El nombre de la vista es requerido');
    setBusy(true);
    const [sort, order] = current.order.split('-') as [ContactView['sort'], ContactView['order']];
    try {
      await createView({ name: name.trim(), search: current.search, tag: current.tag, sort, order });
      toast.success('Vista guardada');
      onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const summary = [current.search && `búsqueda «${current.search}»`, current.tag && `etiqueta «${current.tag}»`].filter(Boolean).join(', ');
  return (
    <Modal title="Guardar vista" onClose={onClose} dirty={name.trim() !== ''}>
      <form onSubmit={onSubmit}>
        <p className="muted">Se guardan {summary || 'todos los contactos'} y el orden actual.</p>
        <TextField
          label="Nombre de la vista"
          value={name}
          maxLength={60}
          error={error ?? undefined}
          onInput={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Guardando...' : 'Guardar'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
