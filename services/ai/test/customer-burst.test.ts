import t from 'tap';
import type { WhatsAppMessage } from '@asistente/contracts';
import { customerLines } from '../src/consumers/customer-burst.js';

// GET /whatsapp/messages/by-id as the contract types it: whole-second timestamps, `seq` the storage order.
const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();
const message = (seq: number, text: string, type: WhatsAppMessage['type'], second: number): WhatsAppMessage => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  chatId: '34611000001@s.whatsapp.net',
  from: type === 'incoming' ? '34611000001@s.whatsapp.net' : 'me',
  to: type === 'incoming' ? 'me' : '34611000001@s.whatsapp.net',
  message: text,
  timestamp: at(second),
  type,
  status: type === 'incoming' ? 'received' : 'sent',
  origin: type === 'incoming' ? 'contact' : 'app',
  media: null,
  seq,
});

t.test("the customer's lines in the order WhatsApp stored them, even within one second", async (t) => {
  const burst = [message(9, 'del pan de masa madre', 'incoming', 5), message(7, 'Hola', 'incoming', 5), message(8, 'quería saber el precio', 'incoming', 5)];
  t.same(customerLines(burst), ['Hola', 'quería saber el precio', 'del pan de masa madre']);
});

t.test("the business's own messages and lines without text are never customer lines", async (t) => {
  const burst = [message(1, 'Pago hecho', 'incoming', 0), message(2, '¡Gracias por tu compra!', 'outgoing', 1), message(3, '  ', 'incoming', 2)];
  t.same(customerLines(burst), ['Pago hecho']);
  t.same(customerLines([]), []);
});
