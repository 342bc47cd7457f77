import { useEffect, useRef, useState } from 'react';
import type { Mention } from './api';
import { entryTime } from './format';

interface MentionsMenuProps {
  mentions: Mention[] | null;
  unseen: number;
  onOpen: (conversationId: string) => void;
}

const PANEL_ID = 'bandeja-menciones';

/**
 * «Menciones» in the page's header: how many notes named me that I have not seen, and the list of them (newest
 * first); choosing one opens its conversation, which sees it. Escape or a click elsewhere closes the list.
 */
export function MentionsMenu({ mentions, unseen, onOpen }: MentionsMenuProps) {
  const [expanded, setExpanded] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!expanded) return undefined;
    const outside = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setExpanded(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setExpanded(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [expanded]);

  return (
    <div className="inbox-mentions" ref={box}>
      {/* A plain button: the focus comes back to it on Escape. */}
      <button ref={toggle} type="button" className="btn btn-secondary" aria-expanded={expanded} aria-controls={PANEL_ID} onClick={() => setExpanded(!expanded)}>
        Menciones{' '}
        {unseen > 0 && (
          <span className="inbox-mentions-count">
            {unseen}
            <span className="sr-only"> sin ver</span>
          </span>
        )}
      </button>
      {expanded && (
        <div id={PANEL_ID} className="inbox-mentions-panel" role="region" aria-label="Notas que te mencionan">
          {mentions === null && <p className="muted">Cargando...</p>}
          {mentions?.length === 0 && <p className="muted">Nadie te ha mencionado en una nota todavía.</p>}
          {mentions && mentions.length > 0 && (
            <ul>
              {mentions.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    className={m.seen ? 'inbox-mention' : 'inbox-mention is-unseen'}
                    onClick={() => {
                      setExpanded(false);
                      onOpen(m.conversationId);
                    }}
                  >
                    <span className="inbox-mention-by">
                      {m.byName ?? 'Alguien del equipo'}
                      {!m.seen && <span className="sr-only"> (sin ver)</span>}
                    </span>{' '}
                    <span className="inbox-mention-time">{entryTime(m.at)}</span>{' '}
                    <span className="inbox-mention-text">{m.text}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
