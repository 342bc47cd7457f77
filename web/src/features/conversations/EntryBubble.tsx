import type { ConversationEntry } from './api';
import { authorLabel, entryTime } from './format';

/**
 * One line of the thread: the customer's on the left, the business's answers on the right with who wrote
 * them, and a note across the thread in its own colour, labelled as private.
 */
export function EntryBubble({ entry }: { entry: ConversationEntry }) {
  const by = authorLabel(entry);
  if (entry.kind === 'note') {
    return (
      <div className="inbox-entry is-note" data-entry-id={entry.id}>
        <span className="inbox-entry-label">
          Nota privada{by ? ` · ${by}` : ''}
        </span>
        <p>{entry.text}</p>
        <span className="inbox-entry-time">{entryTime(entry.at)}</span>
      </div>
    );
  }
  const out = entry.direction === 'outgoing';
  return (
    <div className={out ? 'inbox-entry is-out' : 'inbox-entry is-in'} data-entry-id={entry.id}>
      {out && by && <span className="inbox-entry-label">{by}</span>}
      <p>{entry.text}</p>
      <span className="inbox-entry-time">{entryTime(entry.at)}</span>
    </div>
  );
}
