// How the inbox screen merges a fresh read of a thread's newest page into what it shows (no browser needed).
import t from 'tap';
import type { ConversationEntry } from '@asistente/contracts';
import { withEntry, withNewest } from '../src/features/conversations/thread-entries.js';

const entry = (id: string, at: string): ConversationEntry => ({
  id,
  conversationId: 'c',
  kind: 'message',
  direction: 'incoming',
  author: 'customer',
  authorId: null,
  authorName: null,
  text: id,
  at: `2026-01-01T10:${at}:00.000Z`,
});
const ids = (entries: ConversationEntry[]) => entries.map((e) => e.id);

t.test('older entries loaded before stay in front of the newest page', async (t) => {
  const shown = [entry('a', '00'), entry('b', '01'), entry('c', '02')];
  const { entries, gap } = withNewest(shown, [entry('b', '01'), entry('c', '02'), entry('d', '03')]);
  t.same(ids(entries), ['a', 'b', 'c', 'd']);
  t.equal(gap, false);
});

t.test('a reply added while the read was under way stays after it; one the page holds is not doubled', async (t) => {
  const shown = [entry('a', '00'), entry('b', '01'), entry('mine', '05')];
  t.same(ids(withNewest(shown, [entry('a', '00'), entry('b', '01')]).entries), ['a', 'b', 'mine']);
  t.same(ids(withNewest(shown, [entry('a', '00'), entry('b', '01'), entry('mine', '05')]).entries), ['a', 'b', 'mine']);
});

t.test('more arrived than a page holds: the page alone, with a gap to load again', async (t) => {
  const { entries, gap } = withNewest([entry('a', '00')], [entry('x', '07'), entry('y', '08')]);
  t.same(ids(entries), ['x', 'y']);
  t.equal(gap, true);
  t.same(withNewest([], [entry('x', '07')]), { entries: [entry('x', '07')], gap: false }, 'an empty thread has no gap');
  t.same(ids(withNewest([entry('a', '00')], []).entries), ['a'], 'an empty answer changes nothing');
});

t.test('an entry the thread already holds (a retried send) is added once', async (t) => {
  const shown = [entry('a', '00')];
  t.same(ids(withEntry(shown, entry('a', '00'))), ['a']);
  t.same(ids(withEntry(shown, entry('b', '01'))), ['a', 'b']);
});
