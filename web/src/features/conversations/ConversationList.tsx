import type { InboxConversation } from './api';
import { ChannelBadge } from './ChannelBadge';
import { displayName, listTime, STATUS_LABELS } from './format';

interface ConversationListProps {
  rows: InboxConversation[];
  selectedId: string | null;
  nameOf: (userId: string | null) => string | null;
  onOpen: (conversation: InboxConversation) => void;
}

/** Newest activity first: who, when, the last words, unread, and who has it. */
export function ConversationList({ rows, selectedId, nameOf, onOpen }: ConversationListProps) {
  return (
    <ul className="inbox-list">
      {rows.map((c) => {
        const selected = c.id === selectedId;
        // The open one is being read: its count would only flicker until the next refresh says 0.
        const unread = selected ? 0 : c.unread;
        const classes = ['inbox-item', selected ? 'is-selected' : '', unread > 0 ? 'is-unread' : ''].filter(Boolean).join(' ');
        return (
          <li key={c.id}>
            <button type="button" className={classes} aria-current={selected ? 'true' : undefined} onClick={() => onOpen(c)}>
              <span className="inbox-item-name">{displayName(c)}</span>
              <span className="inbox-item-time">{listTime(c.lastMessageAt ?? c.createdAt)}</span>
              <span className="inbox-item-preview">{c.lastMessagePreview ?? ''}</span>
              {unread > 0 && (
                <span className="inbox-unread">
                  {unread}
                  <span className="sr-only"> sin leer</span>
                </span>
              )}
              <span className="inbox-item-meta">
                <ChannelBadge channel={c.channel} />{' '}
                {c.assigneeId ? (nameOf(c.assigneeId) ?? 'Asignada') : 'Sin asignar'}
                {c.status !== 'open' && ` · ${STATUS_LABELS[c.status]}`}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
