import { CALENDAR_EVENT_SOURCES, CONVERSATION_CHANNELS, type EventType, type WebhookEventData, type WebhookEventType } from '@asistente/contracts';
import type { EventEnvelope } from '@asistente/kit';

/** An internal event as an endpoint sees it: its public type and the few fields it carries. */
export interface WebhookEvent<T extends WebhookEventType = WebhookEventType> {
  eventId: string;
  userId: string;
  type: T;
  occurredAt: string;
  data: WebhookEventData<T>;
  /** The same event with its ids alone, for an endpoint set to "Solo identificadores". */
  ids: WebhookEventData<T>;
  /**
   * Only to endpoints that existed when it happened: a first mailbox sync announces a month of old mail as
   * received, which is history, not news (the WhatsApp history sync is dropped outright by `live`).
   */
  onlyNewerThanEndpoint: boolean;
}

type Data = Record<string, unknown>;
const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 200;
const oneOf = <T extends string>(value: unknown, options: readonly T[]): value is T => options.includes(value as T);
/** The field names a `contacts.contact.updated` event lists (names only: the catalogue bounds them). */
const fieldNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= 20 && value.every((name) => typeof name === 'string' && /^[a-zA-Z]{1,40}$/.test(name));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SOURCES = CALENDAR_EVENT_SOURCES;
const PROVIDERS = ['gmail', 'outlook', 'imap'] as const;
const ORIGINS = ['app', 'phone', 'keyword', 'ai'] as const;
const CHANNELS = CONVERSATION_CHANNELS;
const AUTHORS = ['member', 'assistant', 'keyword', 'phone'] as const;
const STATUSES = ['open', 'pending', 'resolved'] as const;
const uuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * How an internal event (packages/contracts/src/events.ts) becomes a webhook: fields are copied by name, never
 * the whole `data`, so nothing a producer adds later leaks out by accident. `data` is the ids ("Solo
 * identificadores" gets it alone), `fields` the record's own fields the others get beside them. Undefined for
 * a malformed event (the bus is not trusted to hold only well-formed ones).
 */
type Mapper = (data: Data, actorId: string | null) => { type: WebhookEventType; data: unknown; fields?: Data | undefined; newerOnly?: boolean } | undefined;

const str = (value: unknown): value is string => typeof value === 'string';
const strOrNull = (value: unknown): value is string | null => value === null || str(value);

/** A contact event's snapshot as the payload's fields, each copied by name; nothing when it is absent or malformed. */
function contactFields(snapshot: unknown): Data | undefined {
  if (typeof snapshot !== 'object' || snapshot === null) return undefined;
  const c = snapshot as Data;
  if (!str(c.firstName) || !str(c.lastName) || !strOrNull(c.email) || !strOrNull(c.phone) || !strOrNull(c.company)) return undefined;
  if (!Array.isArray(c.tags) || !c.tags.every(str)) return undefined;
  return { firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, company: c.company, tags: c.tags };
}

/** A calendar entry's times, those that are well-formed. */
function eventTimes(d: Data): Data {
  const instant = (value: unknown) => str(value) && !Number.isNaN(Date.parse(value));
  return {
    ...(instant(d.startAt) ? { startAt: d.startAt } : {}),
    ...(instant(d.endAt) ? { endAt: d.endAt } : {}),
    ...(typeof d.allDay === 'boolean' ? { allDay: d.allDay } : {}),
  };
}

/** The fields a message event carries beside its ids: its text and, for a received one, who sent it. */
function messageFields(d: Data): Data {
  return {
    ...(str(d.text) ? { text: d.text } : {}),
    ...(text(d.from) ? { from: d.from } : {}),
    ...(d.senderName === null || str(d.senderName) ? { senderName: d.senderName } : {}),
  };
}

/**
 * Every event type of the catalogue decides here: its mapper, or null for what no endpoint hears (internal
 * bookkeeping, personal data, another service's duty). A type added to the catalogue fails the build until it
 * is decided on.
 */
const MAPPERS: { readonly [T in EventType]: Mapper | null } = {
  'auth.user.registered': null,
  'contacts.contact.imported': null,
  // Not one webhook but one per contact it carries, and only for the endpoints that hear them: imported-contacts.ts.
  'contacts.import.written': null,
  'email.message.opened': null,
  'email.message.clicked': null,
  'whatsapp.contacts.synced': null,
  'workspace.member.left': null,
  'meet.meeting.created': null,
  'teams.meeting.created': null,
  'teams.message.sent': null,
  'teams.message.received': null,
  'ai.run.completed': null,
  'security.activity.recorded': null,
  'account.retention.changed': null,
  'user.deleted': null,
  'account.erasure.progressed': null,
  'contacts.contact.created': (d) =>
    typeof d.contactId === 'string' && UUID.test(d.contactId)
      ? { type: 'contact.created', data: { contactId: d.contactId, hasEmail: d.hasEmail === true }, fields: contactFields(d.contact) }
      : undefined,
  // An event recorded before `changed` existed goes out without it (never as an empty, wrong "nothing changed").
  'contacts.contact.updated': (d) =>
    typeof d.contactId === 'string' && UUID.test(d.contactId) && (d.changed === undefined || fieldNames(d.changed))
      ? {
          type: 'contact.updated',
          data: { contactId: d.contactId, ...(d.changed === undefined ? {} : { changed: d.changed }) },
          fields: contactFields(d.contact),
        }
      : undefined,
  'contacts.contact.deleted': (d) =>
    typeof d.contactId === 'string' && UUID.test(d.contactId) ? { type: 'contact.deleted', data: { contactId: d.contactId }, fields: contactFields(d.contact) } : undefined,
  'whatsapp.message.received': (d) =>
    text(d.messageId) && text(d.chatId) && d.live !== false
      ? { type: 'whatsapp.message.received', data: { messageId: d.messageId, chatId: d.chatId, isGroup: d.isGroup === true }, fields: messageFields(d) }
      : undefined,
  'whatsapp.message.sent': (d) =>
    text(d.messageId) && text(d.chatId)
      ? {
          type: 'whatsapp.message.sent',
          data: { messageId: d.messageId, chatId: d.chatId, origin: oneOf(d.origin, ORIGINS) ? d.origin : null },
          fields: str(d.text) ? { text: d.text } : {},
        }
      : undefined,
  'email.message.received': (d) =>
    text(d.messageId) && oneOf(d.provider, PROVIDERS) ? { type: 'email.received', data: { messageId: d.messageId, provider: d.provider }, newerOnly: true } : undefined,
  'email.message.sent': (d) => (text(d.messageId) && oneOf(d.provider, PROVIDERS) ? { type: 'email.sent', data: { messageId: d.messageId, provider: d.provider } } : undefined),
  'calendar.event.created': (d) =>
    text(d.eventId) && oneOf(d.source, SOURCES)
      ? { type: 'calendar.event.created', data: { eventId: d.eventId, source: d.source, title: typeof d.title === 'string' ? d.title : null }, fields: eventTimes(d) }
      : undefined,
  'calendar.event.updated': (d) =>
    text(d.eventId) && oneOf(d.source, SOURCES)
      ? { type: 'calendar.event.updated', data: { eventId: d.eventId, source: d.source, title: typeof d.title === 'string' ? d.title : null }, fields: eventTimes(d) }
      : undefined,
  'calendar.event.deleted': (d) =>
    text(d.eventId) && oneOf(d.source, SOURCES) ? { type: 'calendar.event.deleted', data: { eventId: d.eventId, source: d.source } } : undefined,
  // The assistant's own answer to a customer; a keyword rule's reply is not the assistant speaking.
  'whatsapp.autoreply.sent': (d) =>
    text(d.messageId) && text(d.chatId) && d.kind === 'ai'
      ? { type: 'ai.answer.sent', data: { channel: 'whatsapp', messageId: d.messageId, chatId: d.chatId } }
      : undefined,
  'conversation.message.received': (d) =>
    uuid(d.conversationId) && uuid(d.entryId) && oneOf(d.channel, CHANNELS) && d.live !== false
      ? { type: 'conversation.message.received', data: { conversationId: d.conversationId, entryId: d.entryId, channel: d.channel } }
      : undefined,
  'conversation.message.sent': (d, actorId) =>
    uuid(d.conversationId) && uuid(d.entryId) && oneOf(d.channel, CHANNELS) && oneOf(d.author, AUTHORS)
      ? { type: 'conversation.message.sent', data: { conversationId: d.conversationId, entryId: d.entryId, channel: d.channel, author: d.author, actorId } }
      : undefined,
  'conversation.assigned': (d, actorId) =>
    uuid(d.conversationId) && (d.assigneeId === null || uuid(d.assigneeId)) && oneOf(d.by, ['rule', 'member'] as const)
      ? { type: 'conversation.assigned', data: { conversationId: d.conversationId, assigneeId: d.assigneeId, by: d.by, actorId } }
      : undefined,
  'conversation.status_changed': (d, actorId) =>
    uuid(d.conversationId) && oneOf(d.from, STATUSES) && oneOf(d.to, STATUSES)
      ? { type: 'conversation.status_changed', data: { conversationId: d.conversationId, from: d.from, to: d.to, actorId } }
      : undefined,
};

export function toWebhookEvent(event: EventEnvelope): WebhookEvent | undefined {
  const mapper = Object.hasOwn(MAPPERS, event.type) ? MAPPERS[event.type as EventType] : null;
  if (!mapper || !UUID.test(event.id) || !UUID.test(event.userId) || typeof event.data !== 'object' || event.data === null) return undefined;
  // Who did it travels beside the data (the envelope's actorId): copied only when it is a member's id.
  const mapped = mapper(event.data as Data, uuid(event.actorId) ? event.actorId : null);
  if (!mapped) return undefined;
  const occurred = new Date(event.occurredAt);
  if (Number.isNaN(occurred.getTime())) return undefined;
  return {
    eventId: event.id,
    userId: event.userId,
    type: mapped.type,
    occurredAt: occurred.toISOString(),
    data: { ...(mapped.data as Data), ...mapped.fields } as WebhookEventData<WebhookEventType>,
    ids: mapped.data as WebhookEventData<WebhookEventType>,
    onlyNewerThanEndpoint: mapped.newerOnly === true,
  };
}

/** The body sent, signed, on every attempt: Standard Webhooks' `{ type, timestamp, data }`. */
export function webhookBody(type: string, timestamp: string, data: unknown): string {
  return JSON.stringify({ type, timestamp, data });
}
