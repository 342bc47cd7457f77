import { useLayoutEffect, useRef, type UIEvent } from 'react';
import { Button } from '../../ui/Button';
import { EntryBubble } from './EntryBubble';
import type { Thread } from './use-thread';

/**
 * The thread's entries, oldest first, scrolled to the newest: it follows new entries while the person reads
 * the end, stays put while they read further up, and keeps the entry they were reading in place when older
 * ones are loaded above it.
 */
export function ThreadLog({ thread, onUseSuggestion }: { thread: Thread; onUseSuggestion: (text: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const older = useRef<{ height: number; top: number; first: string | undefined } | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // Older entries arrived in front: the same entry stays under the person's eyes.
    if (older.current && thread.entries[0]?.id !== older.current.first) {
      el.scrollTop = el.scrollHeight - older.current.height + older.current.top;
      older.current = null;
    } else if (atEnd.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [thread.entries]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  };

  const loadOlder = () => {
    const el = box.current;
    if (el) older.current = { height: el.scrollHeight, top: el.scrollTop, first: thread.entries[0]?.id };
    void thread.loadOlder();
  };

  return (
    // Focusable so the thread scrolls from the keyboard too.
    <div className="inbox-log" ref={box} onScroll={onScroll} role="log" aria-label="Mensajes" tabIndex={0}>
      {thread.hasMore && (
        <Button variant="secondary" small className="inbox-older" disabled={thread.loadingOlder} onClick={loadOlder}>
          {thread.loadingOlder ? 'Cargando...' : 'Cargar anteriores'}
        </Button>
      )}
      {thread.entries.length === 0 && <p className="muted inbox-log-empty">Aún no hay mensajes en esta conversación.</p>}
      {thread.entries.map((entry) => (
        <EntryBubble key={entry.id} entry={entry} onUseSuggestion={onUseSuggestion} />
      ))}
    </div>
  );
}
