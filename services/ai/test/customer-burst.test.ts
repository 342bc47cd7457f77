import t from 'tap';
import { customerBurst } from '../src/consumers/customer-burst.js';

// GET /whatsapp/messages as documented: newest first, whole-second timestamps, `type` incoming/outgoing.
const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();
const page = {
  data: [
    { id: 'c3', message: 'del pan de masa madre', timestamp: at(5), type: 'incoming', origin: 'contact' },
    { id: 'c2', message: 'quería saber el precio', timestamp: at(5), type: 'incoming', origin: 'contact' },
    { id: 'c1', message: 'Hola', timestamp: at(4), type: 'incoming', origin: 'contact' },
    { id: 'b1', message: '¡Gracias por tu compra!', timestamp: at(1), type: 'outgoing', origin: 'app' },
    { id: 'c0', message: 'Pago hecho', timestamp: at(0), type: 'incoming', origin: 'contact' },
  ],
  pagination: { total: 5, page: 1, limit: 20 },
};

t.test('the announced ids, in the order their events arrived', async (t) => {
  t.same(customerBurst(page, ['c1', 'c2', 'c3']), ['Hola', 'quería saber el precio', 'del pan de masa madre']);
  t.same(customerBurst(page, ['c2']), ['quería saber el precio']);
  t.same(customerBurst(page, ['b1']), ['Hola', 'quería saber el precio', 'del pan de masa madre'], "the business's own message is never a customer line");
});

t.test('without matching ids: the lines after the last business message, oldest first, ties in list order', async (t) => {
  t.same(customerBurst(page, ['desconocido']), ['Hola', 'quería saber el precio', 'del pan de masa madre']);
  t.same(customerBurst({ data: [] }, []), []);
  t.same(customerBurst('no es una lista', []), []);
});
