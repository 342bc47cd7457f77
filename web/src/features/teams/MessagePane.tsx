import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { Button } from '../../ui/Button';
import { postMessage, type TeamsChannel } from './api';
import { formatMessageTime } from './format';
import { useChannelMessages } from './use-channel-messages';

interface MessagePaneProps {
  channel: TeamsChannel | null;
}

/** The open channel's conversation and the send box (spec: the text must be non-blank). */
export function MessagePane({ channel }: MessagePaneProps) {
  const { messages, error, append } = useChannelMessages(channel?.id ?? null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const inputId = useId();

  // Newest at the bottom, in view, as a chat reads.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages?.length]);

  useEffect(() => {
    setText('');
    setSendError(null);
  }, [channel?.id]);

  if (!channel) {
    return (
      <section className="card teams-messages" aria-label="Mensajes del canal">
        <p className="muted">Elige un canal para ver sus mensajes.</p>
      </section>
    );
  }

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) {
      setSendError('Escribe un mensaje antes de enviarlo');
      return;
    }
    setSending(true);
    setSendError(null);
    try {
      append(await postMessage(channel.id, message));
      setText('');
    } catch (err) {
      setSendError(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="card teams-messages" aria-labelledby="teams-messages-title">
      <h2 id="teams-messages-title" className="card-title">
        # {channel.name}
      </h2>
      {error && (
        <p className="load-failed" role="alert">
          {messages ? 'No se pudieron actualizar los mensajes: ' : 'No se pudieron cargar los mensajes: '}
          {error}
        </p>
      )}
      {!messages && !error && <p className="muted">Cargando mensajes...</p>}
      {messages?.length === 0 && <p className="muted">Todavía no hay mensajes en este canal.</p>}
      {messages && messages.length > 0 && (
        <ol className="teams-message-list" ref={listRef} aria-live="polite">
          {messages.map((m) => (
            <li key={m.id} className={m.mine ? 'teams-message teams-message-mine' : 'teams-message'}>
              <div className="teams-message-head">
                <span className="teams-message-author">{m.author}</span>
                <time className="muted" dateTime={m.createdAt}>
                  {formatMessageTime(m.createdAt)}
                </time>
              </div>
              <p className="teams-message-text">{m.content}</p>
            </li>
          ))}
        </ol>
      )}
      <form className="teams-send" onSubmit={send} noValidate>
        <label htmlFor={inputId} className="sr-only">
          Mensaje para # {channel.name}
        </label>
        <input
          id={inputId}
          type="text"
          placeholder="Escribe un mensaje..."
          maxLength={4000}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          aria-invalid={sendError ? true : undefined}
        />
        <Button type="submit" disabled={sending || !text.trim()}>
          {sending ? 'Enviando...' : 'Enviar'}
        </Button>
      </form>
      {sendError && (
        <p className="field-error" role="alert">
          {sendError}
        </p>
      )}
    </section>
  );
}
