import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { UpdateConversationBody } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import type { InboxConversation } from './api';
import { AssigneeSelect } from './AssigneeSelect';
import { AssistantState } from './AssistantState';
import { ChannelBadge } from './ChannelBadge';
import { Composer, type ComposerDraft } from './Composer';
import { contactName, displayName, STATUS_LABELS } from './format';
import { typingText, viewingText } from './presence';
import { StatusActions } from './StatusActions';
import { ThreadLog } from './ThreadLog';
import type { Members } from './use-members';
import type { Presence } from './use-presence';
import type { Thread } from './use-thread';

interface ThreadPaneProps {
  thread: Thread;
  members: Members;
  myId: string;
  presence: Pick<Presence, 'viewers' | 'typists' | 'typing' | 'stopTyping'>;
  onBack: () => void;
  /** Sends a change of the conversation (assignee, status, assistant) and answers it as the server has it. */
  update: (id: string, body: UpdateConversationBody) => Promise<InboxConversation>;
  /** The server answered a change: the list shows it at once. */
  onChanged: (conversation: InboxConversation) => void;
}

/** What a change says once the server took it. */
function changedMessage(body: UpdateConversationBody, c: InboxConversation, nameOf: Members['nameOf']): string {
  if (body.status === 'resolved') return 'Conversación resuelta';
  if (body.status === 'open') return 'Conversación reabierta';
  if (body.status === 'pending') return 'Conversación marcada como pendiente';
  if (body.assigneeId !== undefined) return c.assigneeId ? `Asignada a ${nameOf(c.assigneeId) ?? 'otra persona'}` : 'Conversación sin asignar';
  return c.assistantActive ? 'El asistente vuelve a responder aquí' : 'Asistente en pausa';
}

/** The open conversation: who it is, its controls (assignee, status, assistant), the thread and the composer. */
export function ThreadPane({ thread, members, myId, presence, onBack, update, onChanged }: ThreadPaneProps) {
  const [busy, setBusy] = useState(false);
  // The suggestion chosen for the composer, for the conversation it belongs to only.
  const [draft, setDraft] = useState<(ComposerDraft & { conversationId: string }) | null>(null);
  const pane = useRef<HTMLElement>(null);
  const c = thread.conversation;
  const shownId = c?.id;
  const contact = thread.contact;
  const viewing = viewingText(presence.viewers);
  const typing = typingText(presence.typists);

  // On a phone the thread takes the list's place further down the page: bring its top into view.
  useEffect(() => {
    if (shownId && window.matchMedia('(max-width: 800px)').matches) pane.current?.scrollIntoView({ block: 'start' });
  }, [shownId]);

  // Another conversation opened: the draft chosen in this one stays behind (and is not used again on coming back).
  useEffect(() => {
    setDraft((current) => (current && current.conversationId !== shownId ? null : current));
  }, [shownId]);

  const change = async (body: UpdateConversationBody) => {
    if (!c) return;
    setBusy(true);
    try {
      const next = await update(c.id, body);
      thread.setConversation(next);
      onChanged(next);
      toast.success(changedMessage(body, next, members.nameOf));
    } catch (err) {
      toast.error(`No se pudo cambiar la conversación: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section ref={pane} className="card inbox-thread" aria-label={c ? `Conversación con ${displayName(c)}` : 'Conversación'}>
      <Button variant="ghost" small className="inbox-back" aria-label="Volver a la lista" onClick={onBack}>
        ← Volver
      </Button>
      {thread.loading && (
        <p className="muted" role="status">
          Cargando...
        </p>
      )}
      {thread.failed && (
        <div className="alert-warning" role="alert">
          <p>No se pudo abrir la conversación.</p>
          <Button variant="secondary" small onClick={thread.reload}>
            Reintentar
          </Button>
        </div>
      )}
      {c && (
        <>
          <header className="inbox-thread-head">
            <div className="inbox-thread-who">
              <h2>{displayName(c)}</h2>
              <p className="muted">
                <ChannelBadge channel={c.channel} />
                {/* A WhatsApp number is worth reading; a visitor's handle is only an id. */}
                {c.channel === 'whatsapp' && c.name && ` ${c.handle}`}
              </p>
              {contact && (
                <p className="inbox-contact">
                  Contacto: <Link href={`/contacts/${encodeURIComponent(contact.id)}`}>{contactName(contact)}</Link>
                </p>
              )}
              {/* So two people do not answer the same customer at once. */}
              {viewing && <p className="inbox-viewers">{viewing}</p>}
            </div>
            <span className={`badge inbox-status is-${c.status}`}>{STATUS_LABELS[c.status]}</span>
          </header>
          <div className="inbox-thread-controls">
            <AssigneeSelect
              id={`inbox-assignee-${c.id}`}
              assigneeId={c.assigneeId}
              members={members.list}
              myId={myId}
              assigneeName={members.nameOf(c.assigneeId)}
              disabled={busy}
              onChange={(assigneeId) => void change({ assigneeId })}
            />
            <StatusActions status={c.status} disabled={busy} onChange={(status) => void change({ status })} />
          </div>
          <AssistantState active={c.assistantActive} disabled={busy} onChange={(assistantActive) => void change({ assistantActive })} />
          <ThreadLog thread={thread} onUseSuggestion={(text) => setDraft({ text, conversationId: c.id })} />
          <p className="inbox-typing" aria-live="polite">
            {typing}
          </p>
          <Composer
            key={c.id}
            conversationId={c.id}
            onTyping={presence.typing}
            draft={draft?.conversationId === c.id ? draft : null}
            onEntry={(entry) => {
              thread.add(entry);
              if (entry.kind !== 'message') return;
              presence.stopTyping();
              // A reply pauses the assistant there (and may change more): the header reads the server's state.
              void thread.refresh();
            }}
          />
        </>
      )}
    </section>
  );
}
