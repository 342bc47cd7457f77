import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { usePermissions } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon } from '../../ui/Icon';
import { RoleNote } from '../../ui/RoleNote';
import { createAutoReply, deleteAutoReply, getAutoReplies, updateAutoReply, whatsappPermissions, type AutoReply } from './api';
import { AutoReplyModal, type NewAutoReply } from './AutoReplyModal';

const isTemporary = (reply: AutoReply) => reply.id.startsWith('tmp-');

/**
 * The keyword answers: list, active toggle, delete, and the modal with its optimistic create. A role that may
 * not change them reads the list, each answer saying whether it is on.
 */
export function AutoRepliesView({ children }: { children?: ReactNode }) {
  const editable = usePermissions(whatsappPermissions)?.editAutoReplies === true;
  const [replies, setReplies] = useState<AutoReply[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AutoReply | null>(null);

  useEffect(() => {
    let current = true;
    getAutoReplies().then(
      (list) => current && setReplies(list),
      (err: unknown) => {
        console.error('No se pudieron cargar las respuestas automáticas', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const create = async (draft: NewAutoReply) => {
    setCreating(false);
    const temp: AutoReply = { id: `tmp-${Date.now()}`, ...draft, createdAt: new Date().toISOString() };
    setReplies((list) => [...(list ?? []), temp]);
    try {
      const saved = await createAutoReply(draft);
      // The record the server answered, or (an answer with only an id) what was sent under that id.
      const record: AutoReply = { ...temp, ...saved, id: saved.id };
      setReplies((list) => (list ?? []).map((r) => (r.id === temp.id ? record : r)));
      toast.success('Respuesta automática creada');
    } catch (err) {
      console.error('No se pudo crear la respuesta', err);
      setReplies((list) => (list ?? []).filter((r) => r.id !== temp.id));
      toast.error('No se pudo crear la respuesta');
    }
  };

  const toggle = async (reply: AutoReply) => {
    const active = !reply.active;
    setReplies((list) => (list ?? []).map((r) => (r.id === reply.id ? { ...r, active } : r)));
    try {
      await updateAutoReply(reply.id, { active });
    } catch (err) {
      console.error('No se pudo cambiar la respuesta', err);
      setReplies((list) => (list ?? []).map((r) => (r.id === reply.id ? { ...r, active: reply.active } : r)));
      toast.error(errorMessage(err));
    }
  };

  const remove = async (reply: AutoReply) => {
    setDeleting(null);
    try {
      await deleteAutoReply(reply.id);
      setReplies((list) => (list ?? []).filter((r) => r.id !== reply.id));
    } catch (err) {
      console.error('No se pudo eliminar la respuesta', err);
      toast.error(errorMessage(err));
    }
  };

  return (
    <section className="card wa-auto-replies" aria-label="Respuestas automáticas">
      <div className="wa-section-head">
        <p className="muted">Responden al instante cuando un mensaje contiene la palabra clave.</p>
        {editable && (
          <Button onClick={() => setCreating(true)} disabled={replies === null}>
            <Icon name="plus" size={16} />
            Nueva respuesta
          </Button>
        )}
      </div>
      {!editable && <RoleNote />}
      {failed && <p className="alert-warning">No se pudieron cargar las respuestas automáticas.</p>}
      {replies?.length === 0 && <p className="muted">Todavía no tienes respuestas automáticas.</p>}
      {replies && replies.length > 0 && (
        <ul className="wa-reply-list">
          {replies.map((reply) => (
            <li key={reply.id} className={isTemporary(reply) ? 'is-saving' : undefined}>
              <div>
                <strong>{reply.keyword}</strong>
                <p>{reply.response}</p>
              </div>
              {editable ? (
                <>
                  <label className="wa-check">
                    <input type="checkbox" checked={reply.active} disabled={isTemporary(reply)} onChange={() => void toggle(reply)} />
                    Activa
                  </label>
                  <Button variant="ghost" small aria-label={`Eliminar ${reply.keyword}`} disabled={isTemporary(reply)} onClick={() => setDeleting(reply)}>
                    <Icon name="trash" size={16} />
                  </Button>
                </>
              ) : (
                <span className={`badge ${reply.active ? 'badge-connected' : 'badge-disconnected'}`}>{reply.active ? 'Activa' : 'Inactiva'}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {children}
      {creating && replies && <AutoReplyModal existing={replies} onCreate={(d) => void create(d)} onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmDialog
          title="Eliminar respuesta"
          message={`¿Eliminar la respuesta automática «${deleting.keyword}»?`}
          confirmLabel="Eliminar"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
