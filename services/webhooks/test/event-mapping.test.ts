import { randomUUID } from 'node:crypto';
import t from 'tap';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CALENDAR_EVENT_SOURCES, WEBHOOK_EVENT_DATA } from '@asistente/contracts';
import { createEvent } from '@asistente/kit';
import { toWebhookEvent } from '../src/domain/event-mapping.js';

// TypeBox's own check knows no formats until told (the services check with Ajv and its formats).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));

t.test('contact.updated carries the names of the changed fields, as the webhook contract declares', async (t) => {
  const contactId = randomUUID();
  const mapped = toWebhookEvent(createEvent('contacts.contact.updated', randomUUID(), { contactId, changed: ['firstName', 'tags'] }));
  t.same(mapped?.data, { contactId, changed: ['firstName', 'tags'] });
  t.equal(mapped?.type, 'contact.updated');
  t.ok(Value.Check(WEBHOOK_EVENT_DATA['contact.updated'], mapped?.data), 'the payload is of the contract');

  const older = toWebhookEvent(createEvent('contacts.contact.updated', randomUUID(), { contactId }));
  t.same(older?.data, { contactId }, 'an update recorded before the field existed goes out without it, never as an empty list');

  const values = { ...createEvent('contacts.contact.updated', randomUUID(), { contactId }), data: { contactId, changed: ['ana@x.es'] } };
  t.equal(toWebhookEvent(values), undefined, 'anything but field names is refused, so no value leaks out');
  const notAList = { ...createEvent('contacts.contact.updated', randomUUID(), { contactId }), data: { contactId, changed: 'email' } };
  t.equal(toWebhookEvent(notAList), undefined);
});

t.test("the inbox's events go out channel-neutral, with the member who acted (or null), each of its contract", async (t) => {
  const [workspaceId, conversationId, entryId, actorId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const sent = toWebhookEvent({ ...createEvent('conversation.message.sent', workspaceId, { conversationId, entryId, channel: 'whatsapp', author: 'member' }), actorId });
  t.same(sent?.data, { conversationId, entryId, channel: 'whatsapp', author: 'member', actorId });
  const byRule = toWebhookEvent(createEvent('conversation.assigned', workspaceId, { conversationId, assigneeId: actorId, by: 'rule' }));
  t.same(byRule?.data, { conversationId, assigneeId: actorId, by: 'rule', actorId: null }, 'no member acted');
  const status = toWebhookEvent(createEvent('conversation.status_changed', workspaceId, { conversationId, from: 'open', to: 'resolved' }));
  t.same(status?.data, { conversationId, from: 'open', to: 'resolved', actorId: null });
  const forged = { ...createEvent('conversation.status_changed', workspaceId, { conversationId, from: 'open', to: 'resolved' }), actorId: 'not-an-id' };
  t.equal(toWebhookEvent(forged), undefined, 'an envelope whose actor is no member id is no event of the catalogue');
  const received = toWebhookEvent(createEvent('conversation.message.received', workspaceId, { conversationId, entryId, channel: 'whatsapp', live: true }));
  t.equal(toWebhookEvent(createEvent('conversation.message.received', workspaceId, { conversationId, entryId, channel: 'whatsapp', live: false })), undefined, 'history is not news');
  for (const mapped of [sent, byRule, status, received]) {
    t.ok(mapped && Value.Check(WEBHOOK_EVENT_DATA[mapped.type], mapped.data), `${mapped?.type} is of the contract`);
  }
});

t.test('every calendar source of the events reaches the webhooks: a CalDAV change too', async (t) => {
  for (const source of CALENDAR_EVENT_SOURCES) {
    for (const type of ['calendar.event.created', 'calendar.event.updated'] as const) {
      const mapped = toWebhookEvent(createEvent(type, randomUUID(), { eventId: 'ev-1', source, title: 'Visita' }));
      t.match(mapped, { type, data: { eventId: 'ev-1', source } }, `${type} from ${source}`);
      t.ok(Value.Check(WEBHOOK_EVENT_DATA[type], mapped?.data), 'the payload is of the contract');
    }
    const deleted = toWebhookEvent(createEvent('calendar.event.deleted', randomUUID(), { eventId: 'ev-1', source }));
    t.match(deleted, { type: 'calendar.event.deleted', data: { source } }, `deleted from ${source}`);
  }
  t.ok(CALENDAR_EVENT_SOURCES.includes('caldav'));
});

t.test('an event is read through its schema: a bad value refuses it whole, and a field the schema does not name never leaks out', async (t) => {
  const event = createEvent('calendar.event.created', randomUUID(), { eventId: 'ev-1', source: 'caldav', title: 'Visita', startAt: '2026-11-20T15:00:00.000Z' });
  t.equal(toWebhookEvent({ ...event, data: { ...event.data, source: 'icloud' } }), undefined, 'a source outside the list');
  t.equal(toWebhookEvent({ ...event, data: { ...event.data, startAt: 'mañana' } }), undefined, 'a time that is no instant');
  t.equal(toWebhookEvent({ ...event, occurredAt: 'ayer' }), undefined, 'an envelope without its instant');
  const extra = toWebhookEvent({ ...event, data: { ...event.data, secret: 'x', meetingId: 'm-1' } });
  t.same(extra?.data, { eventId: 'ev-1', source: 'caldav', title: 'Visita', startAt: '2026-11-20T15:00:00.000Z' }, 'copied by name');
  t.same(extra?.ids, { eventId: 'ev-1', source: 'caldav', title: 'Visita' }, 'the ids alone, for "Solo identificadores"');
  const contactId = randomUUID();
  const contact = { firstName: 'Lucía', lastName: 'Pérez', email: null, phone: null, company: null, tags: [], notes: 'privado' };
  t.same(toWebhookEvent(createEvent('contacts.contact.deleted', randomUUID(), { contactId, contact }))?.data, { contactId, firstName: 'Lucía', lastName: 'Pérez', email: null, phone: null, company: null, tags: [] }, 'no note');
});

t.test('an event no endpoint hears, or a type outside the catalogue, becomes no webhook', async (t) => {
  t.equal(toWebhookEvent(createEvent('ai.run.completed', randomUUID(), { runId: randomUUID(), trigger: 'manual', costUsd: 0 } as never)), undefined);
  for (const type of ['toString', 'constructor', '__proto__', 'nada.de.nada']) {
    t.equal(toWebhookEvent({ ...createEvent('contacts.contact.created', randomUUID(), { contactId: randomUUID(), hasEmail: false }), type } as never), undefined, type);
  }
});
