import { useEffect, useState } from 'react';
import { toast } from '../../lib/toasts';
import { useDebounced } from '../../lib/use-debounced';
import { Pagination } from '../../ui/Pagination';
import { getConversations, type Conversation } from './api';

/** Spec section 9: conversations 10 a page. */
export const CONVERSATIONS_PAGE = 10;

const timeOf = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('es', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' }) : '';

/** The inbox: search, pages of 10, newest activity first; a click opens the chat drawer. */
export function ConversationsView({ onOpen, version }: { onOpen: (c: Conversation) => void; version: unknown }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Conversation[] | null>(null);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);
  const term = useDebounced(search.trim(), 300);

  useEffect(() => setPage(1), [term]);

  useEffect(() => {
    let current = true;
    getConversations(page, CONVERSATIONS_PAGE, term).then(
      (answer) => {
        if (!current) return;
        setRows(answer.data);
        setTotal(answer.pagination.total);
        setFailed(false);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar las conversaciones', err);
        if (!current) return;
        setFailed(true);
        toast.error('No se pudieron cargar mensajes');
      },
    );
    return () => {
      current = false;
    };
  }, [page, term, version]);

  return (
    <section className="card wa-conversations" aria-label="Conversaciones">
      <div className="field">
        <label htmlFor="wa-search">Buscar conversación</label>
        <input id="wa-search" type="search" placeholder="Nombre o teléfono" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      {failed && <p className="alert-warning">No se pudieron cargar las conversaciones.</p>}
      {rows === null && !failed && (
        <p className="muted" role="status">
          Cargando...
        </p>
      )}
      {rows?.length === 0 && <p className="muted">{term ? 'Ninguna conversación coincide con la búsqueda.' : 'Todavía no hay conversaciones.'}</p>}
      {rows && rows.length > 0 && (
        <ul className="wa-conversation-list">
          {rows.map((c) => (
            <li key={c.id}>
              <button type="button" className="wa-conversation" onClick={() => onOpen(c)}>
                <span className="wa-conversation-name">
                  {c.name}
                  {c.isGroup && <span className="wa-tag">Grupo</span>}
                </span>
                <span className="wa-conversation-time">{timeOf(c.lastAt)}</span>
                <span className="wa-conversation-last">
                  {c.lastMessage ? `${c.lastMessage.direction === 'outgoing' ? 'Tú: ' : ''}${c.lastMessage.text}` : ''}
                </span>
                {c.unread > 0 && (
                  <span className="wa-unread" aria-label={`${c.unread} sin leer`}>
                    {c.unread}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      {total > CONVERSATIONS_PAGE && <Pagination page={page} pageSize={CONVERSATIONS_PAGE} total={total} onPage={setPage} />}
    </section>
  );
}
