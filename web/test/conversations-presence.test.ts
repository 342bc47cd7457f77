// Who else the inbox screen shows on an open conversation, and how it words it (no browser needed).
import t from 'tap';
import type { ConversationPresence } from '@asistente/contracts';
import { nextLapse, othersPresent, typingText, viewingText } from '../src/features/conversations/presence.js';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
const member = (userId: string, name: string, untilSeconds: number) => ({ userId, name, until: at(untilSeconds) });

t.test('the others whose time has not lapsed: never me, nobody unrenewed', async (t) => {
  const list = [member('me', 'Laura Martínez', 20), member('luis', 'Luis Pérez', 20), member('marta', 'Marta Gil', -1)];
  t.same(othersPresent(list, 'me', NOW).map((p) => p.userId), ['luis']);
  const presence: ConversationPresence = { conversationId: 'c', viewing: list, typing: [member('luis', 'Luis Pérez', 4)] };
  t.equal(nextLapse(presence, 'me', NOW), NOW + 4000, 'redrawn when Luis stops typing');
  t.equal(nextLapse({ ...presence, viewing: [list[0]!], typing: [] }, 'me', NOW), null, 'nothing to redraw for oneself alone');
});

t.test('viewing: «También lo está viendo», one or several', async (t) => {
  t.equal(viewingText([]), null);
  t.equal(viewingText([member('luis', 'Luis Pérez', 20)]), 'También lo está viendo: Luis Pérez');
  t.equal(viewingText([member('luis', 'Luis Pérez', 20), member('marta', 'Marta Gil', 20)]), 'También lo están viendo: Luis Pérez y Marta Gil');
});

t.test('typing: first names, full names when two share one', async (t) => {
  t.equal(typingText([]), null);
  t.equal(typingText([member('ana', 'Ana López', 5)]), 'Ana está escribiendo…');
  t.equal(typingText([member('ana', 'Ana López', 5), member('luis', 'Luis Pérez', 5)]), 'Ana y Luis están escribiendo…');
  t.equal(typingText([member('ana', 'Ana López', 5), member('ana2', 'Ana Ruiz', 5)]), 'Ana López y Ana Ruiz están escribiendo…');
  t.equal(typingText([member('x', '', 5)]), 'Alguien del equipo está escribiendo…', 'a member whose name is unknown');
});
