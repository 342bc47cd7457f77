// A message id made without loading Baileys keeps the shape of Baileys' own generateMessageIDV2 and never repeats.
import t from 'tap';
import { generateMessageIDV2 } from '@whiskeysockets/baileys';
import { createLogger } from '@asistente/kit';
import { BaileysConnector } from '../src/adapters/baileys-connector.js';

t.test('3EB0 and 18 upper-case hex digits, as Baileys makes them, unique', async (t) => {
  const connector = new BaileysConnector({ log: createLogger('silent', 'whatsapp-test') });
  const shape = /^3EB0[0-9A-F]{18}$/;
  t.match(generateMessageIDV2(), shape, "Baileys' own id has this shape");
  const ids = Array.from({ length: 1000 }, () => connector.newMessageId());
  t.ok(ids.every((id) => shape.test(id)), 'every id has it');
  t.equal(new Set(ids).size, ids.length, 'no id repeats');
});
