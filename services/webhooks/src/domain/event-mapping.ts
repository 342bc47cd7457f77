import type { ContactSnapshot, DomainEvent, EventData, WebhookEventData, WebhookEventType } from '@asistente/contracts';
import { EventValidator } from '@asistente/kit';

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

/** What an internal event becomes: its public type, its ids, the record's own fields beside them. */
interface Mapped<T extends WebhookEventType> {
  type: T;
  /** The ids: all an endpoint set to "Solo identificadores" gets. */
  ids: WebhookEventData<T>;
  /** The record's own fields, which the other endpoints get beside the ids. */
  fields?: Partial<WebhookEventData<T>> | undefined;
  newerOnly?: boolean;
}
/** A webhook of type `T`: its ids and fields typed by that type's payload (a field of another type fails the build). */
const hook = <T extends WebhookEventType>(type: T, ids: WebhookEventData<T>, fields?: Partial<WebhookEventData<T>>, newerOnly = false): Mapped<T> => ({ type, ids, fields, newerOnly });
/** The payload's data for an endpoint that wants the fields: the ids and the fields together. */
const withFields = <T extends WebhookEventType>(m: Mapped<T>): WebhookEventData<T> => ({ ...m.ids, ...m.fields });

/** The field names a `contacts.contact.updated` event lists (names only: nothing that looks like a value). */
const fieldNames = (names: string[]) => names.every((name) => /^[a-zA-Z]{1,40}$/.test(name));

/** A contact's snapshot as the payload's fields, each copied by name (a field a producer adds later stays out). */
const contactFields = (c: ContactSnapshot | undefined) =>
  c && { firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, company: c.company, tags: c.tags };

/** A calendar entry's times, those it carries. */
function eventTimes(d: { startAt?: string | undefined; endAt?: string | undefined; allDay?: boolean | undefined }) {
  return {
    ...(d.startAt === undefined ? {} : { startAt: d.startAt }),
    ...(d.endAt === undefined ? {} : { endAt: d.endAt }),
    ...(d.allDay === undefined ? {} : { allDay: d.allDay }),
  };
}

/** The fields a received message carries beside its ids: its text and who sent it. */
function messageFields(d: EventData<'whatsapp.message.received'>) {
  return {
    ...(d.text === undefined ? {} : { text: d.text }),
    ...(d.from === undefined ? {} : { from: d.from }),
    ...(d.senderName === undefined ? {} : { senderName: d.senderName }),
  };
}

/** A type of the catalogue that no case decided on: the build fails here until it is. */
function undecided(event: never): undefined {
  return event;
}

/**
 * How an internal event of the catalogue (packages/contracts/src/events.ts, checked against its schema first)
 * becomes a webhook: fields are copied by name, never the whole `data`, so nothing a producer adds later leaks
 * out by accident. Every type of the catalogue is decided on here, a webhook or none (internal bookkeeping,
 * personal data, another service's duty): a type added to the catalogue fails the build until it is. `actorId`:
 * the member who caused it, or null.
 */
function mapped(event: DomainEvent, actorId: string | null): Mapped<WebhookEventType> | undefined {
  switch (event.type) {
    case 'auth.user.registered':
    case 'contacts.contact.imported':
    case 'contacts.import.written': // one webhook per contact it carries, for the endpoints that hear them: imported-contacts.ts
    case 'email.message.opened':
    case 'email.message.clicked':
    case 'whatsapp.contacts.synced':
    case 'workspace.member.left':
    case 'meet.meeting.created':
    case 'teams.meeting.created':
    case 'teams.message.sent':
    case 'teams.message.received':
    case 'ai.run.completed':
    case 'security.activity.recorded':
    case 'account.retention.changed':
    case 'user.deleted':
    case 'account.erasure.progressed':
      return undefined;
    case 'contacts.contact.created': {
      const d = event.data;
      return hook('contact.created', { contactId: d.contactId, hasEmail: d.hasEmail }, contactFields(d.contact));
    }
    // An event recorded before `changed` existed goes out without it (never as an empty, wrong "nothing changed").
    case 'contacts.contact.updated': {
      const { contactId, changed, contact } = event.data;
      if (changed !== undefined && !fieldNames(changed)) return undefined;
      return hook('contact.updated', { contactId, ...(changed === undefined ? {} : { changed }) }, contactFields(contact));
    }
    case 'contacts.contact.deleted':
      return hook('contact.deleted', { contactId: event.data.contactId }, contactFields(event.data.contact));
    case 'whatsapp.message.received': {
      const d = event.data;
      // History synced from the phone is no news.
      if (d.live === false) return undefined;
      return hook('whatsapp.message.received', { messageId: d.messageId, chatId: d.chatId, isGroup: d.isGroup === true }, messageFields(d));
    }
    case 'whatsapp.message.sent': {
      const d = event.data;
      return hook('whatsapp.message.sent', { messageId: d.messageId, chatId: d.chatId, origin: d.origin ?? null }, d.text === undefined ? {} : { text: d.text });
    }
    // A first mailbox sync announces a month of old mail as received: only endpoints older than the message hear it.
    case 'email.message.received':
      return hook('email.received', { messageId: event.data.messageId, provider: event.data.provider }, undefined, true);
    case 'email.message.sent':
      return hook('email.sent', { messageId: event.data.messageId, provider: event.data.provider });
    case 'calendar.event.created':
    case 'calendar.event.updated': {
      const d = event.data;
      return hook(event.type, { eventId: d.eventId, source: d.source, title: d.title ?? null }, eventTimes(d));
    }
    case 'calendar.event.deleted':
      return hook('calendar.event.deleted', { eventId: event.data.eventId, source: event.data.source });
    // The assistant's own answer to a customer; a keyword rule's reply is not the assistant speaking.
    case 'whatsapp.autoreply.sent': {
      const d = event.data;
      return d.kind === 'ai' ? hook('ai.answer.sent', { channel: 'whatsapp', messageId: d.messageId, chatId: d.chatId }) : undefined;
    }
    case 'conversation.message.received': {
      const d = event.data;
      return d.live ? hook('conversation.message.received', { conversationId: d.conversationId, entryId: d.entryId, channel: d.channel }) : undefined;
    }
    case 'conversation.message.sent': {
      const d = event.data;
      return hook('conversation.message.sent', { conversationId: d.conversationId, entryId: d.entryId, channel: d.channel, author: d.author, actorId });
    }
    case 'conversation.assigned': {
      const d = event.data;
      return hook('conversation.assigned', { conversationId: d.conversationId, assigneeId: d.assigneeId, by: d.by, actorId });
    }
    case 'conversation.status_changed': {
      const d = event.data;
      return hook('conversation.status_changed', { conversationId: d.conversationId, from: d.from, to: d.to, actorId });
    }
    default:
      return undecided(event);
  }
}

/** The bus is not trusted to hold only well-formed events: each is checked against the catalogue first. */
const catalogue = new EventValidator();

/** An event from the bus as its webhook; undefined for one that is malformed or that no endpoint hears. */
export function toWebhookEvent(input: unknown): WebhookEvent | undefined {
  const checked = catalogue.validate(input);
  if (!checked.ok) return undefined;
  const { event } = checked;
  const hooked = mapped(event, event.actorId ?? null);
  if (!hooked) return undefined;
  return {
    eventId: event.id,
    userId: event.userId,
    type: hooked.type,
    occurredAt: new Date(event.occurredAt).toISOString(),
    data: withFields(hooked),
    ids: hooked.ids,
    onlyNewerThanEndpoint: hooked.newerOnly === true,
  };
}

/** The body sent, signed, on every attempt: Standard Webhooks' `{ type, timestamp, data }`. */
export function webhookBody(type: string, timestamp: string, data: unknown): string {
  return JSON.stringify({ type, timestamp, data });
}
