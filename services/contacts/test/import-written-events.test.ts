// An import's batch is announced in events that stay within the catalogue's bounds: by count, by bytes, a huge contact alone.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { IMPORT_EVENT_MAX_BYTES, IMPORT_EVENT_MAX_CONTACTS } from '@asistente/contracts';
import { EventValidator } from '@asistente/kit';
import { importWritten, type ImportWrite } from '../src/domain/contact-events.js';

const validator = new EventValidator();
const userId = randomUUID();
const write = (n: number, tags: string[] = [], changed?: string[]): ImportWrite => ({
  row: { id: randomUUID(), firstName: `Nombre${n}`, lastName: `Apellido${n}`, email: `persona${n}@ejemplo.es`, phone: null, company: 'Panadería Sol', tags },
  changed,
});
const contactIds = (events: ReturnType<typeof importWritten>) => events.flatMap((e) => (e.data as { contacts: { contactId: string }[] }).contacts.map((c) => c.contactId));

t.test('600 ordinary contacts: three events of at most the catalogue\'s count, each valid, every contact once and in order', async (t) => {
  const writes = Array.from({ length: 600 }, (_, n) => write(n, [], n % 2 ? ['firstName'] : undefined));
  const events = importWritten(userId, writes);
  t.same(events.map((e) => (e.data as { contacts: unknown[] }).contacts.length), [IMPORT_EVENT_MAX_CONTACTS, IMPORT_EVENT_MAX_CONTACTS, 100]);
  for (const event of events) t.ok(validator.validate(event).ok, `${event.type} is of the catalogue`);
  t.same(contactIds(events), writes.map((w) => w.row.id));
  t.match((events[0]!.data as { contacts: unknown[] }).contacts.slice(0, 2), [{ created: true }, { created: false, changed: ['firstName'] }]);
});

t.test('contacts with many long tags: cut by bytes before the count, each event within the budget', async (t) => {
  const tags = Array.from({ length: 50 }, (_, i) => `etiqueta-${i}-${'x'.repeat(38)}`);
  const events = importWritten(userId, Array.from({ length: 200 }, (_, n) => write(n, tags)));
  t.ok(events.length > 1, `${events.length} events for 200 contacts`);
  for (const event of events) {
    t.ok(Buffer.byteLength(JSON.stringify(event.data)) <= IMPORT_EVENT_MAX_BYTES + 100, 'within the budget');
    t.ok(validator.validate(event).ok);
  }
  t.equal(contactIds(events).length, 200);
});

t.test('a contact larger than the budget travels alone, between its neighbours', async (t) => {
  const huge = Array.from({ length: 1000 }, (_, i) => `${i}-${'y'.repeat(200)}`);
  const events = importWritten(userId, [write(1), write(2, huge), write(3)]);
  t.same(events.map((e) => (e.data as { contacts: unknown[] }).contacts.length), [1, 1, 1]);
  t.ok(events.every((e) => validator.validate(e).ok));
  t.same(importWritten(userId, []), [], 'nothing written, nothing announced');
});
