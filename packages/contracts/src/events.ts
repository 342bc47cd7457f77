import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { RetentionSettings } from './retention.js';
import { ErasureProgressedEventData, UserDeletedEventData } from './account-deletion.js';
import { SecurityActivityEventData } from './security-activity.js';
import { CALENDAR_SOURCES } from './calendar.js';
import { ConversationChannel, ConversationStatus } from './conversations.js';
import { MailProviderName } from './email.js';
import { literalUnion } from './literals.js';

/**
 * The product's domain events: subject `<prefix>.<type>`, type
 * `<domain>.<entity>.<verb>`. Every service publishes only through its
 * outbox; consumers validate each event against its schema here and park
 * what does not match instead of crashing.
 */
const Id = Type.String({ minLength: 1, maxLength: 200 });
const Count = Type.Integer({ minimum: 0 });
/**
 * Where a calendar entry came from, as the events and the webhooks name it: the calendar providers
 * (CALENDAR_SOURCES) and the entries of older events written as 'local'. One list, so a provider added there
 * reaches both (CalDAV's changes once never became webhooks, the webhook list having been written apart).
 */
export const CALENDAR_EVENT_SOURCES = [...CALENDAR_SOURCES, 'local'] as const;
export const CalendarEventSource = literalUnion(CALENDAR_EVENT_SOURCES);
export type CalendarEventSource = Static<typeof CalendarEventSource>;
const CalendarSource = CalendarEventSource;
/** Who wrote a WhatsApp message the number sent: the owner in the app or on their phone, a keyword rule, the assistant. */
export const SENT_MESSAGE_ORIGINS = ['app', 'phone', 'keyword', 'ai'] as const;
export const SentMessageOrigin = literalUnion(SENT_MESSAGE_ORIGINS);
/** Who wrote a conversation's message sent to a customer: a member, the assistant, a keyword rule or the number's own phone. */
export const MESSAGE_SENDERS = ['member', 'assistant', 'keyword', 'phone'] as const;
export const MessageSender = literalUnion(MESSAGE_SENDERS);
/** How a conversation came to its assignee: the workspace's rule or a member. */
export const ASSIGNED_BY = ['rule', 'member'] as const;
export const AssignedBy = literalUnion(ASSIGNED_BY);
/** What the owner called an event or meeting, so the activity feed can name it (cut to 200 characters). */
export const EVENT_TITLE_MAX = 200;
const Title = Type.String({ maxLength: EVENT_TITLE_MAX });
const Uuid = Type.String({ format: 'uuid' });
/**
 * When a calendar entry happens: instants (ISO 8601, UTC); an all-day entry's are midnight UTC of its first day
 * and of the day after its last. Optional: events written before they existed lack them.
 */
const EventTimes = {
  startAt: Type.Optional(Type.String({ format: 'date-time' })),
  endAt: Type.Optional(Type.String({ format: 'date-time' })),
  allDay: Type.Optional(Type.Boolean()),
};

/** Characters of a message's text an event carries (a WhatsApp text's own limit): what a webhook receiver reads. */
export const EVENT_TEXT_MAX = 4096;
const Text = Type.String({ maxLength: EVENT_TEXT_MAX });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A contact as it stood when the event was written, for the webhooks' payloads (a receiver needs the name
 * without calling back). Optional on every contact event: the events written before it existed lack it.
 */
// Bounds looser than the API's: a merge unions tags past the form's 50, and an event that fails its schema is parked for every consumer.
const Field = Type.String({ maxLength: 1000 });
export const ContactSnapshot = Type.Object({
  firstName: Field,
  lastName: Field,
  email: Nullable(Field),
  phone: Nullable(Field),
  company: Nullable(Field),
  tags: Type.Array(Field, { maxItems: 1000 }),
});
export type ContactSnapshot = Static<typeof ContactSnapshot>;
/**
 * `imported`: written by a CSV import, whose `contacts.contact.imported` already counts it. Only events recorded
 * before `contacts.import.written` existed carry it (an import no longer writes one event per contact); it stays
 * valid so that they replay, and analytics still leaves them out.
 */
const Imported = Type.Optional(Type.Boolean());

/**
 * Contacts one `contacts.import.written` carries at most: an import's batch is announced in events of up to this
 * many contacts (the embedded import's batch is one event), and of at most IMPORT_EVENT_MAX_BYTES of JSON.
 */
export const IMPORT_EVENT_MAX_CONTACTS = 250;
/**
 * The JSON size an import's event is cut at (its contacts' snapshots; a single contact larger than this still
 * travels alone). NATS refuses a message over its `max_payload` (1 MiB unless configured), and a JetStream
 * consumer buffers up to a thousand messages: an eighth of that limit keeps both far away.
 */
export const IMPORT_EVENT_MAX_BYTES = 128 * 1024;
/** A contact an import wrote: `created` (it added it) or not (it changed a stored one, naming the fields). */
const ImportedContact = Type.Object({
  contactId: Uuid,
  created: Type.Boolean(),
  changed: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })),
  contact: ContactSnapshot,
});

export const EVENT_DATA = {
  'auth.user.registered': Type.Object({}),

  'contacts.contact.created': Type.Object({
    contactId: Type.String({ format: 'uuid' }),
    hasEmail: Type.Boolean(),
    contact: Type.Optional(ContactSnapshot),
    imported: Imported,
  }),
  /**
   * `changed`: the names of the fields the write changed (firstName, lastName, email, phone, company, notes,
   * tags), never their values. Optional only because events written before it existed stay valid on a replay;
   * every producer sets it.
   */
  'contacts.contact.updated': Type.Object({
    contactId: Type.String({ format: 'uuid' }),
    changed: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })),
    contact: Type.Optional(ContactSnapshot),
    imported: Imported,
  }),
  /** `contact`: the contact as it was before it went (a receiver can no longer ask for it). */
  'contacts.contact.deleted': Type.Object({ contactId: Type.String({ format: 'uuid' }), contact: Type.Optional(ContactSnapshot) }),
  'contacts.contact.imported': Type.Object({ created: Count, updated: Count, skipped: Count, failed: Count }),
  /**
   * The contacts one batch of a CSV import wrote, with their fields, for the webhooks: they expand it into one
   * contact.created or contact.updated per contact for the endpoints that hear those (and do nothing otherwise).
   * Written beside the batch's `contacts.contact.imported`, which counts them; no other consumer reads it.
   */
  'contacts.import.written': Type.Object({ contacts: Type.Array(ImportedContact, { minItems: 1, maxItems: IMPORT_EVENT_MAX_CONTACTS }) }),

  'email.message.sent': Type.Object({ messageId: Id, provider: MailProviderName }),
  'email.message.received': Type.Object({ messageId: Id, provider: MailProviderName }),
  'email.message.opened': Type.Object({ messageId: Id }),
  'email.message.clicked': Type.Object({ messageId: Id }),

  /**
   * chatId identifies the conversation (a WhatsApp JID), for active-contact counts. origin says who wrote a
   * sent message: the owner in the app or on their phone, a keyword rule or the assistant (the assistant
   * stays silent in a chat the owner answers from the phone).
   */
  'whatsapp.message.sent': Type.Object({
    messageId: Id,
    chatId: Id,
    origin: Type.Optional(SentMessageOrigin),
    /** The message's text (cut to EVENT_TEXT_MAX; '' for media without a caption). */
    text: Type.Optional(Text),
  }),
  /**
   * keywordAnswered: a keyword rule already answered it; isGroup: a group chat (never answered automatically);
   * live: a real-time message after the connection opened (false for history sync and appends).
   */
  'whatsapp.message.received': Type.Object({
    messageId: Id,
    chatId: Id,
    keywordAnswered: Type.Optional(Type.Boolean()),
    isGroup: Type.Optional(Type.Boolean()),
    live: Type.Optional(Type.Boolean()),
    /** The text, and who wrote it: their JID and the name their phone shows (pushName), when known. */
    text: Type.Optional(Text),
    from: Type.Optional(Id),
    senderName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  }),
  /** Emitted beside the message.sent of an automatic answer (keyword rule or AI). */
  'whatsapp.autoreply.sent': Type.Object({ messageId: Id, chatId: Id, kind: Type.Union([Type.Literal('keyword'), Type.Literal('ai')]) }),
  'whatsapp.contacts.synced': Type.Object({ created: Count, updated: Count }),

  /**
   * The team's inbox (channel-neutral): a message of a conversation stored, an assignment (`assigneeId` null:
   * unassigned; `by` the workspace's rule or a member, who is the envelope's actorId), a status change.
   */
  // live: false for a history sync's messages (they open nothing and wait for no answer). direct: a person's
  // own conversation (not a group, a broadcast or a newsletter); autoAnswered: a keyword rule answered it.
  // Both are optional for the events written before they existed, which the assistant leaves unanswered.
  'conversation.message.received': Type.Object({
    conversationId: Uuid,
    entryId: Uuid,
    channel: ConversationChannel,
    live: Type.Boolean(),
    direct: Type.Optional(Type.Boolean()),
    autoAnswered: Type.Optional(Type.Boolean()),
  }),
  'conversation.message.sent': Type.Object({ conversationId: Uuid, entryId: Uuid, channel: ConversationChannel, author: MessageSender }),
  'conversation.assigned': Type.Object({
    conversationId: Uuid,
    assigneeId: Type.Union([Uuid, Type.Null()]),
    by: AssignedBy,
  }),
  'conversation.status_changed': Type.Object({ conversationId: Uuid, from: ConversationStatus, to: ConversationStatus }),

  /** A member left a workspace (removed by its managers); userId is the workspace, memberId the person. */
  'workspace.member.left': Type.Object({ memberId: Uuid }),

  /**
   * A Meet or Teams meeting also puts an entry in a calendar: that entry's event carries `meetingId` and is
   * counted by the meeting's own event, once (analytics' isMeetingEntry; a Teams entry before `meetingId`
   * is known by its source 'msteams').
   */
  'calendar.event.created': Type.Object({ eventId: Id, source: CalendarSource, title: Type.Optional(Title), meetingId: Type.Optional(Id), ...EventTimes }),
  'calendar.event.updated': Type.Object({ eventId: Id, source: CalendarSource, title: Type.Optional(Title), ...EventTimes }),
  'calendar.event.deleted': Type.Object({ eventId: Id, source: CalendarSource }),

  'meet.meeting.created': Type.Object({ meetingId: Id, title: Type.Optional(Title) }),
  'teams.meeting.created': Type.Object({ meetingId: Id, title: Type.Optional(Title) }),
  'teams.message.sent': Type.Object({ messageId: Id, channelId: Id }),
  'teams.message.received': Type.Object({ messageId: Id, channelId: Id }),

  'ai.run.completed': Type.Object({
    model: Type.String({ minLength: 1, maxLength: 100 }),
    promptTokens: Count,
    completionTokens: Count,
    totalTokens: Count,
    costUsd: Type.Optional(Type.Number({ minimum: 0 })),
    trigger: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('whatsapp')])),
  }),

  /** A line of the owner's security activity log (a login, a provider connected…): auth keeps it 90 days. */
  'security.activity.recorded': SecurityActivityEventData,

  /** The owner's retention settings changed (auth): whatsapp, email and ai each keep a copy of their own days. */
  'account.retention.changed': RetentionSettings,

  /** The owner deleted the account: every service erases what it holds of the user (packages/kit erasure). */
  'user.deleted': UserDeletedEventData,
  /** A service's erasure of a deleted user started or finished; userId is the deletion's id (no user row). */
  'account.erasure.progressed': ErasureProgressedEventData,
} as const satisfies Record<string, TObject>;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = Static<(typeof EVENT_DATA)[T]>;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];

/** The envelope every domain event travels in (outbox, NATS, consumers). */
export const eventEnvelope = <T extends string, D extends TSchema>(type: T, data: D) =>
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    type: Type.Literal(type),
    userId: Type.String({ format: 'uuid' }),
    /** The member whose request caused it, when one did. */
    actorId: Type.Optional(Type.String({ format: 'uuid' })),
    occurredAt: Type.String({ format: 'date-time' }),
    data,
  });

export type DomainEvent = {
  [T in EventType]: { id: string; type: T; userId: string; actorId?: string; occurredAt: string; data: EventData<T> };
}[EventType];
