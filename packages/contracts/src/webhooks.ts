import { Type, type Static, type TLiteral, type TObject, type TSchema, type TString } from '@sinclair/typebox';
import { ConversationChannel, ConversationStatus } from './conversations.js';
import { MailProviderName } from './email.js';
import { AssignedBy, CalendarEventSource, MessageSender, SentMessageOrigin } from './events.js';
import { literalUnion } from './literals.js';

/**
 * Outbound webhooks (services/webhooks): what a user's endpoint may subscribe to, the body it receives for
 * each type (Standard Webhooks: `{ type, timestamp, data }`, signed), and the API of Configuración →
 * "Webhooks". Payloads carry the ids and the record's own fields (a contact's name, email, phone, company and
 * tags; a message's text and sender; an entry's title and times), so a receiver needs no call back; never a
 * secret or a token. An endpoint set to "Solo identificadores" (`idsOnly`) gets the ids alone: every field
 * marked optional below is then absent (it is also absent from an event written before it existed).
 */

/** Endpoints one user may register. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/** Delivery log rows older than this are purged. */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
/** A delivery keeps being retried this long after it was created; an endpoint failing this long is disabled. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Uuid = Type.String({ format: 'uuid' });
const CalendarSource = CalendarEventSource;
const MailProvider = MailProviderName;
const Status = ConversationStatus;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A contact's own fields, as it stood when the event happened (before it went, for a deletion). */
const ContactFields = {
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  email: Type.Optional(Nullable(Type.String())),
  phone: Type.Optional(Nullable(Type.String())),
  company: Type.Optional(Nullable(Type.String())),
  tags: Type.Optional(Type.Array(Type.String())),
};
/** When a calendar entry happens (ISO 8601, UTC; an all-day entry's midnights, the end exclusive). */
const EventTimes = {
  startAt: Type.Optional(Type.String({ format: 'date-time' })),
  endAt: Type.Optional(Type.String({ format: 'date-time' })),
  allDay: Type.Optional(Type.Boolean()),
};

/**
 * The event types an endpoint may subscribe to, in the form's order: the one list, which the subscription's
 * schema, the delivery bodies' schema and the payloads below read (a tuple, so a schema built from it keeps
 * each name's type).
 */
export const WEBHOOK_EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'whatsapp.message.received',
  'whatsapp.message.sent',
  'email.received',
  'email.sent',
  'calendar.event.created',
  'calendar.event.updated',
  'calendar.event.deleted',
  'ai.answer.sent',
  'conversation.message.received',
  'conversation.message.sent',
  'conversation.assigned',
  'conversation.status_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The `data` of each event type an endpoint may subscribe to: every type of the list, and no other (the build checks both). */
export const WEBHOOK_EVENT_DATA = {
  'contact.created': Type.Object({ contactId: Uuid, hasEmail: Type.Boolean(), ...ContactFields }),
  /**
   * `changed`: the names of the fields that changed (firstName, lastName, email, phone, company, notes, tags),
   * no values; absent only for an update recorded before the field existed.
   */
  'contact.updated': Type.Object({ contactId: Uuid, changed: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })), ...ContactFields }),
  'contact.deleted': Type.Object({ contactId: Uuid, ...ContactFields }),
  /**
   * `chatId` is the WhatsApp JID of the conversation; history synced from the phone is not sent. `from`: the
   * sender's JID; `senderName`: the name their phone shows, null when it shows none.
   */
  'whatsapp.message.received': Type.Object({
    messageId: Id,
    chatId: Id,
    isGroup: Type.Boolean(),
    text: Type.Optional(Type.String()),
    from: Type.Optional(Id),
    senderName: Type.Optional(Nullable(Type.String())),
  }),
  /** `origin`: who wrote it (the owner in the app or on the phone, a keyword rule, the assistant); null when unknown. */
  'whatsapp.message.sent': Type.Object({
    messageId: Id,
    chatId: Id,
    origin: Type.Union([...SentMessageOrigin.anyOf, Type.Null()]),
    text: Type.Optional(Type.String()),
  }),
  'email.received': Type.Object({ messageId: Id, provider: MailProvider }),
  'email.sent': Type.Object({ messageId: Id, provider: MailProvider }),
  'calendar.event.created': Type.Object({ eventId: Id, source: CalendarSource, title: Type.Union([Type.String(), Type.Null()]), ...EventTimes }),
  'calendar.event.updated': Type.Object({ eventId: Id, source: CalendarSource, title: Type.Union([Type.String(), Type.Null()]), ...EventTimes }),
  'calendar.event.deleted': Type.Object({ eventId: Id, source: CalendarSource }),
  /** The assistant answered a customer by itself (today: on WhatsApp). */
  'ai.answer.sent': Type.Object({ channel: Type.Literal('whatsapp'), messageId: Id, chatId: Id }),
  /**
   * The team's inbox, whatever the channel: a conversation's message stored, an assignment, a status change.
   * `actorId`: the member who did it, null for the customer, the assistant, a rule or the phone.
   */
  'conversation.message.received': Type.Object({ conversationId: Uuid, entryId: Uuid, channel: ConversationChannel }),
  'conversation.message.sent': Type.Object({
    conversationId: Uuid,
    entryId: Uuid,
    channel: ConversationChannel,
    author: MessageSender,
    actorId: Type.Union([Uuid, Type.Null()]),
  }),
  'conversation.assigned': Type.Object({
    conversationId: Uuid,
    assigneeId: Type.Union([Uuid, Type.Null()]),
    by: AssignedBy,
    actorId: Type.Union([Uuid, Type.Null()]),
  }),
  'conversation.status_changed': Type.Object({ conversationId: Uuid, from: Status, to: Status, actorId: Type.Union([Uuid, Type.Null()]) }),
} as const satisfies { readonly [T in WebhookEventType]: TObject };

export type WebhookEventData<T extends WebhookEventType> = Static<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** Sent by "Probar": never subscribed to, always accepted. */
export const WEBHOOK_TEST_TYPE = 'webhook.test' as const;
export const WebhookTestData = Type.Object({ endpointId: Uuid, message: Type.String() });

/** The subscribable types as a schema. */
export const WebhookEventTypeSchema = literalUnion(WEBHOOK_EVENT_TYPES);

const message = <T extends string, D extends TObject>(type: T, data: D) =>
  Type.Object({ type: Type.Literal(type), timestamp: Type.String({ format: 'date-time' }), data });
/** A delivery's body schema for one type: the type, when, and that type's data. */
type MessageSchema<T extends WebhookEventType> = TObject<{ type: TLiteral<T>; timestamp: TString; data: (typeof WEBHOOK_EVENT_DATA)[T] }>;
/** One body schema per type of the list, typed as a tuple (as a union written out would be). */
type MessageSchemas<T extends readonly WebhookEventType[]> = { -readonly [K in keyof T]: MessageSchema<T[K]> };

/** The body of a delivery, exactly as signed and sent: one shape per type of the list, and the test's. */
export const WebhookMessage = Type.Union([
  ...(WEBHOOK_EVENT_TYPES.map((type) => message(type, WEBHOOK_EVENT_DATA[type])) as unknown as MessageSchemas<typeof WEBHOOK_EVENT_TYPES>),
  message(WEBHOOK_TEST_TYPE, WebhookTestData),
]);
export type WebhookMessage = Static<typeof WebhookMessage>;

/**
 * What a receiver's URL may be, said the same by the form's hint, its check and the server: https, or plain
 * http only to an address the operator allowed (ALLOWED_PRIVATE_ADDRESSES: a self-hosted n8n, a test receiver).
 */
export const WEBHOOK_URL_RULE = 'Debe empezar por https:// (http:// solo hacia una dirección de tu red que el administrador haya permitido)';
/** The scheme part of that rule, as the form checks it before sending. */
export const WEBHOOK_URL_PATTERN = '^https?://[^\\s]+$';
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  pattern: WEBHOOK_URL_PATTERN,
  messages: {
    required: 'La URL es obligatoria',
    minLength: 'La URL es obligatoria',
    maxLength: 'La URL admite como máximo 2000 caracteres',
    pattern: `La URL no es válida. ${WEBHOOK_URL_RULE}`,
  },
});
/** "Solo identificadores": the payloads carry ids alone (the shape before they carried the record's fields). */
const IdsOnly = Type.Boolean({ messages: { type: '«Solo identificadores» debe ser verdadero o falso' } });
const Events = Type.Array(WebhookEventTypeSchema, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  messages: {
    required: 'Elige al menos un tipo de evento',
    minItems: 'Elige al menos un tipo de evento',
    uniqueItems: 'Un tipo de evento aparece repetido',
    maxItems: 'Hay demasiados tipos de evento',
  },
});
const Description = Type.String({
  maxLength: 200,
  pattern: '^[^\\u0000-\\u001f\\u007f]*$',
  messages: { maxLength: 'La descripción admite como máximo 200 caracteres', pattern: 'La descripción contiene caracteres no válidos' },
});

export const WebhookEndpointBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description), idsOnly: Type.Optional(IdsOnly) },
  { additionalProperties: false },
);
export type WebhookEndpointBody = Static<typeof WebhookEndpointBody>;

export const WebhookEndpointPatch = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
    idsOnly: Type.Optional(IdsOnly),
  },
  { additionalProperties: false, minProperties: 1, messages: { minProperties: 'No hay nada que cambiar' } },
);
export type WebhookEndpointPatch = Static<typeof WebhookEndpointPatch>;

export const WebhookEndpoint = Type.Object({
  id: Uuid,
  url: Type.String(),
  events: Type.Array(WebhookEventTypeSchema),
  description: Type.String(),
  enabled: Type.Boolean(),
  /** "Solo identificadores": its payloads carry ids only. */
  idsOnly: Type.Boolean(),
  /** Why it was disabled (by the owner, or after a day of failed deliveries); null while enabled. */
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  /** Since when deliveries fail without a success in between; null when the last one succeeded. */
  failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** POST /webhooks: the only answer that carries the signing secret (`whsec_` + base64). */
export const WebhookEndpointCreated = Type.Intersect([WebhookEndpoint, Type.Object({ secret: Type.String() })]);
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreated>;

export const WebhookEndpointList = Type.Object({ endpoints: Type.Array(WebhookEndpoint), max: Type.Integer() });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const WebhookDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

/** One attempt of a delivery, as it ended: every one is kept ("Reenviar" adds one), the first first. */
export const WebhookDeliveryAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
  responseStatus: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttempt>;

export const WebhookDelivery = Type.Object({
  id: Uuid,
  endpointId: Uuid,
  /** The `webhook-id` header: the same on every attempt, for the receiver's de-duplication. */
  messageId: Type.String(),
  type: Type.String(),
  status: WebhookDeliveryStatus,
  attempts: Type.Integer({ minimum: 0 }),
  responseStatus: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Union([Type.Integer(), Type.Null()]),
  /** What went wrong on the last attempt, in Spanish; null after a success. */
  error: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  payload: WebhookMessage,
  /** Every attempt that ended, oldest first (the fields above repeat the last one's). */
  attemptLog: Type.Array(WebhookDeliveryAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WEBHOOK_DELIVERIES_MAX_LIMIT = 100;
export const WebhookDeliveriesQuery = Type.Object(
  {
    page: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      default: 1,
      messages: { type: 'La página debe ser un número entero mayor o igual que 1', minimum: 'La página debe ser un número entero mayor o igual que 1', maximum: 'La página es demasiado alta' },
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: WEBHOOK_DELIVERIES_MAX_LIMIT,
      default: 20,
      messages: {
        type: `El límite debe ser un número entero entre 1 y ${WEBHOOK_DELIVERIES_MAX_LIMIT}`,
        minimum: `El límite debe ser un número entero entre 1 y ${WEBHOOK_DELIVERIES_MAX_LIMIT}`,
        maximum: `El límite debe ser un número entero entre 1 y ${WEBHOOK_DELIVERIES_MAX_LIMIT}`,
      },
    }),
  },
  { additionalProperties: false },
);
export type WebhookDeliveriesQuery = Static<typeof WebhookDeliveriesQuery>;

export const WebhookDeliveryPage = Type.Object({
  data: Type.Array(WebhookDelivery),
  pagination: Type.Object({ total: Type.Integer({ minimum: 0 }), page: Type.Integer({ minimum: 1 }), limit: Type.Integer({ minimum: 1 }) }),
});
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;

export const WebhookDeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }),
  deliveryId: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }),
});
export type WebhookDeliveryParams = Static<typeof WebhookDeliveryParams>;
