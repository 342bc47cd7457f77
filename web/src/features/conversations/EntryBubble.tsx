import { Button } from '../../ui/Button';
import type { ConversationEntry } from './api';
import { authorLabel, entryTime } from './format';

interface EntryBubbleProps {
  entry: ConversationEntry;
  /** «Usar esta respuesta»: the suggestion's text goes to the composer, to be edited before it is sent. */
  onUseSuggestion: (text: string) => void;
}

/**
 * One line of the thread: the customer's on the left, the business's answers on the right with who wrote
 * them, a note across the thread in its own colour, labelled as private, and the assistant's suggestion, also
 * private, with the button that takes it to the composer.
 */
export function EntryBubble({ entry, onUseSuggestion }: EntryBubbleProps) {
  const by = authorLabel(entry);
  if (entry.kind === 'suggestion') {
    return (
      <div className="inbox-entry is-suggestion" data-entry-id={entry.id}>
        <span className="inbox-entry-label">Sugerencia del asistente</span>
        <p>{entry.text}</p>
        <div className="inbox-suggestion-foot">
          <Button variant="secondary" small onClick={() => onUseSuggestion(entry.text)}>
            Usar esta respuesta
          </Button>
          <span className="inbox-entry-time">{entryTime(entry.at)}</span>
        </div>
      </div>
    );
  }
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
