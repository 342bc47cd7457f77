// The consumers' event check on its own: types compiled by their first event still refuse unknown types and bad payloads, and every validator of the process gives the same verdicts.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { EventValidator } from '../src/events/event-validator.js';

const created = (data: unknown) => ({ id: randomUUID(), type: 'contacts.contact.created', userId: randomUUID(), occurredAt: new Date().toISOString(), data });

t.test('a catalogue event passes and narrows; an unknown type, a missing type and a bad payload are refused with their reason', async (t) => {
  const validator = new EventValidator();
  const good = validator.validate(created({ contactId: randomUUID(), hasEmail: true }));
  t.equal(good.ok, true);
  if (good.ok && good.event.type === 'contacts.contact.created') t.equal(good.event.data.hasEmail, true);
  t.same(validator.validate({ ...created({}), type: 'contacts.contact.teleported' }), { ok: false, reason: 'unknown event type contacts.contact.teleported' });
  t.same(validator.validate({ ...created({}), type: 'toString' }), { ok: false, reason: 'unknown event type toString' }, 'a name every object inherits is not a type');
  t.same(validator.validate(null), { ok: false, reason: 'event without a type' });
  const bad = validator.validate(created({ contactId: 'no-es-un-uuid', hasEmail: true }));
  t.equal(bad.ok, false);
  t.match(!bad.ok && bad.reason, /^contacts\.contact\.created: \/data\/contactId must match format "uuid"$/);
});

t.test('validators made before and after a type compiled give the same verdicts', async (t) => {
  const before = new EventValidator();
  const event = created({ contactId: randomUUID(), hasEmail: 'sí' });
  const first = before.validate(event);
  const after = new EventValidator();
  t.same(after.validate(event), first);
  t.equal(first.ok, false);
});
