import { Icon } from '../../ui/Icon';
import type { EmailList } from './api';
import { formatDate, senderName } from './format';

interface MessageListProps {
  list: EmailList | null;
  error: string | null;
  selectedId: string | null;
  showRecipient: boolean;
  /** A first sync in progress ("Sincronizando tu correo… 120 de 340"): said instead of an empty folder. */
  syncing: string | null;
  onOpen: (id: string) => void;
}

/** The folder's mails: sender, subject, the 50-character preview, date; unread in bold. */
export function MessageList({ list, error, selectedId, showRecipient, syncing, onOpen }: MessageListProps) {
  if (error) {
    return (
      <p className="alert-warning" role="alert">
        {error}
      </p>
    );
  }
  const progress = syncing && (
    <p className="muted mail-sync" role="status">
      {syncing}
    </p>
  );
  if (!list) return progress || <p className="muted mail-empty">Cargando correos...</p>;
  if (list.data.length === 0) return progress || <p className="muted mail-empty">No hay correos en esta carpeta</p>;
  return (
    <>
      {progress}
      <ul className="mail-list" aria-label="Correos">
        {list.data.map((m) => (
          <li key={m.id}>
            <button
              type="button"
              className={['mail-item', m.isRead ? '' : 'is-unread', m.id === selectedId ? 'is-selected' : ''].filter(Boolean).join(' ')}
              aria-current={m.id === selectedId ? 'true' : undefined}
              onClick={() => onOpen(m.id)}
            >
              <span className="mail-item-top">
                <span className="mail-item-from">{showRecipient ? `Para: ${m.to}` : senderName(m.from)}</span>
                <span className="mail-item-date">{formatDate(m.createdAt)}</span>
              </span>
              <span className="mail-item-subject">
                {!m.isRead && <span className="sr-only">No leído: </span>}
                {m.subject || '(sin asunto)'}
                {m.hasAttachments && <Icon name="upload" size={14} />}
              </span>
              <span className="mail-item-preview">{m.preview}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
