import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type UIEvent } from 'react';
import { CLOUD_WINDOW_CLOSED } from '@asistente/contracts';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ApiError } from '../../lib/errors';
import { getWindow, sendText, WINDOW_CLOSED_CODE, type Conversation, type WhatsAppMessage } from './api';
import { TemplatePicker } from './TemplatePicker';
import { useChatHistory } from './use-chat-history';

/** Spec section 9: scrolling within 40 px of the top loads older messages. */
export const SCROLL_TOP_THRESHOLD = 40;
const TEXT_MAX = 4096;

const STATUS_WORDS: Record<WhatsAppMessage['status'], string> = {
  pending: 'Enviando…',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'No enviado',
  received: '',
};

const ORIGIN_MARKS: Partial<Record<WhatsAppMessage['origin'], string>> = {
  ai: 'Asistente IA',
  keyword: 'Respuesta automática',
  phone: 'Desde el teléfono',
};

const timeOf = (iso: string) => new Date(iso).toLocaleString('es', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

interface ChatDrawerProps {
  conversation: Conversation;
  onClose: () => void;
  /** Rendered in the drawer's header, under the contact (e.g. the assistant's per-chat control). */
  headerExtra?: ReactNode;
  /** The workspace sends through the Cloud API: a chat whose 24-hour window has closed opens on the templates. */
  cloud?: boolean;
}

/** The side chat drawer: history 30 at a time (older ones near the top, position kept) and the send box. */
export function ChatDrawer({ conversation, onClose, headerExtra, cloud = false }: ChatDrawerProps) {
  const history = useChatHistory(conversation.id);
  const listRef = useRef<HTMLDivElement>(null);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const stickToBottom = useRef(true);
  const [text, setText] = useState('');
  /** The Cloud API refused free text (the customer's window closed): its reason, shown above the templates. */
  const [windowClosed, setWindowClosed] = useState<string | null>(null);

  useEffect(() => {
    if (!cloud) return;
    let live = true;
    // A failed check leaves the send box as it is: a refused send still offers the templates.
    getWindow(conversation.id).then(
      (window) => live && !window.open && setWindowClosed(CLOUD_WINDOW_CLOSED),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [cloud, conversation.id]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  // After older messages are prepended, the one the user was reading stays where it was.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (restore.current) {
      list.scrollTop = list.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    } else if (stickToBottom.current) {
      list.scrollTop = list.scrollHeight;
    }
  }, [history.messages]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    if (list.scrollTop > SCROLL_TOP_THRESHOLD || !history.hasMore || restore.current) return;
    restore.current = { height: list.scrollHeight, top: list.scrollTop };
    void history.loadOlder().then((loaded) => {
      if (!loaded) restore.current = null;
    });
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    const tempId = `tmp-${Date.now()}`;
    const temp: WhatsAppMessage = {
      id: tempId,
      chatId: conversation.id,
      from: 'me',
      to: conversation.id,
      message: body,
      timestamp: new Date().toISOString(),
      type: 'outgoing',
      status: 'pending',
      origin: 'app',
      media: null,
      seq: Number.MAX_SAFE_INTEGER,
    };
    stickToBottom.current = true;
    history.add(temp);
    setText('');
    try {
      history.replace(tempId, await sendText(conversation.id, body));
    } catch (err) {
      console.error('No se pudo enviar el mensaje', err);
      history.replace(tempId, { ...temp, status: 'failed' });
      // The Cloud API's 24-hour window has closed: only an approved template may go; the box offers them.
      if (err instanceof ApiError && err.code === WINDOW_CLOSED_CODE) setWindowClosed(err.message);
      else toast.error('No se pudo enviar el mensaje');
    }
  };

  return (
    <aside className="wa-drawer" role="dialog" aria-modal="false" aria-label={`Chat con ${conversation.name}`}>
      <header className="wa-drawer-head">
        <div>
          <h2>{conversation.name}</h2>
          {conversation.phone && <p className="muted">{conversation.phone}</p>}
          {headerExtra}
        </div>
        <Button variant="ghost" small aria-label="Cerrar chat" onClick={onClose}>
          ×
        </Button>
      </header>
      {/* Focusable so the history scrolls from the keyboard too (arrow keys, Page Up loads older messages). */}
      <div
        className="wa-messages"
        ref={listRef}
        onScroll={onScroll}
        aria-live="polite"
        role="log"
        aria-label="Mensajes"
        tabIndex={0}
        data-testid="wa-messages"
      >
        {history.loading && (
          <p className="muted" role="status">
            Cargando...
          </p>
        )}
        {history.failed && <p className="alert-warning">No se pudieron cargar mensajes.</p>}
        {!history.loading && !history.failed && history.messages.length === 0 && <p className="muted">Aún no hay mensajes en este chat.</p>}
        {history.messages.map((m) => (
          <div key={m.id} className={`wa-bubble ${m.type === 'outgoing' ? 'is-out' : 'is-in'}`} data-status={m.status}>
            {m.type === 'outgoing' && ORIGIN_MARKS[m.origin] && <span className="wa-origin">{ORIGIN_MARKS[m.origin]}</span>}
            {m.media && <span className="wa-media">[{m.media.kind}]</span>}
            <p>{m.message}</p>
            <span className="wa-meta">
              {timeOf(m.timestamp)}
              {m.type === 'outgoing' && ` · ${STATUS_WORDS[m.status]}`}
            </span>
            {m.status === 'failed' && m.error && <span className="wa-failure">{m.error}</span>}
          </div>
        ))}
      </div>
      {windowClosed && (
        <TemplatePicker
          jid={conversation.id}
          reason={windowClosed}
          onSent={(message) => {
            history.add(message);
            setWindowClosed(null);
          }}
        />
      )}
      <form className="wa-sendbox" onSubmit={(e) => void send(e)}>
        <label htmlFor="wa-text" className="sr-only">
          Mensaje
        </label>
        <textarea
          id="wa-text"
          rows={2}
          maxLength={TEXT_MAX}
          placeholder="Escribe un mensaje"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <Button type="submit" disabled={!text.trim()}>
          Enviar
        </Button>
      </form>
    </aside>
  );
}
