import t from 'tap';
import { CONVERSATION_TEXT_MAX, type ConversationEntry } from '@asistente/contracts';
import { customerLines, MAX_LINE_AGE_MS } from '../src/consumers/customer-burst.js';
import { fitAnswer } from '../src/domain/answer-fit.js';

// GET /conversations/:id/excerpt as the contract types it: the entries in the order the inbox stored them.
const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);
const entry = (n: number, text: string, kind: ConversationEntry['kind'], direction: ConversationEntry['direction'], at = NOW): ConversationEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  conversationId: '00000000-0000-4000-8000-000000000000',
  kind,
  direction,
  author: direction === 'incoming' ? 'customer' : 'member',
  authorId: null,
  authorName: null,
  text,
  at: new Date(at).toISOString(),
});

t.test("the customer's lines, in the inbox's order; the business's messages, notes and blank lines are never theirs", async (t) => {
  const burst = [
    entry(1, 'Hola', 'message', 'incoming'),
    entry(2, '¡Gracias por tu compra!', 'message', 'outgoing'),
    entry(3, 'Ojo: cliente VIP', 'note', null),
    entry(4, '  ', 'message', 'incoming'),
    entry(5, 'quería saber el precio', 'message', 'incoming'),
  ];
  t.same(customerLines(burst, NOW - MAX_LINE_AGE_MS), ['Hola', 'quería saber el precio']);
  t.same(customerLines([], NOW), []);
});

t.test('a line older than the limit (passed on late, after an outage) is not answered', async (t) => {
  const burst = [entry(1, 'de esta mañana', 'message', 'incoming', NOW - MAX_LINE_AGE_MS - 1), entry(2, '¿seguís ahí?', 'message', 'incoming')];
  t.same(customerLines(burst, NOW - MAX_LINE_AGE_MS), ['¿seguís ahí?']);
});

t.test('an answer longer than a message takes is cut at a word, never left unsent', async (t) => {
  t.equal(fitAnswer('Abrimos a las 9.'), 'Abrimos a las 9.');
  const long = 'palabra '.repeat(1000);
  const fitted = fitAnswer(long);
  t.ok(fitted.length <= CONVERSATION_TEXT_MAX, `${fitted.length} characters`);
  t.match(fitted, /palabra…$/);
});
