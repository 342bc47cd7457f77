import { Type, type Static } from '@sinclair/typebox';

/** Spec section 9: conversations 10 a page; messages 20 by default, 30 in the conversation view. */
export const WHATSAPP_CONVERSATIONS_PAGE_SIZE = 10;
export const WHATSAPP_MESSAGES_PAGE_SIZE = 20;
export const WHATSAPP_CHAT_PAGE_SIZE = 30;
export const WHATSAPP_TEXT_MAX = 4096;

/** PostgreSQL refuses the NUL character in text: refused here with a message instead of failing later. */
const NO_NUL = '^[^\\u0000]*$';
const noNul = (message: string) => ({ pattern: NO_NUL, messages: { pattern: message } });

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const WhatsAppState = Type.Union([
  Type.Literal('disconnected'),
  Type.Literal('connecting'),
  Type.Literal('qr'),
  Type.Literal('connected'),
  Type.Literal('logged_out'),
  Type.Literal('error'),
  /** A never-linked account gave up after its bounded retries; nothing reconnects it until the owner retries. */
  Type.Literal('failed'),
]);
export type WhatsAppState = Static<typeof WhatsAppState>;

/** Who carries a workspace's WhatsApp: a linked phone (Baileys, WhatsApp Web) or Meta's official Cloud API. */
export const WhatsAppProvider = Type.Union([Type.Literal('baileys'), Type.Literal('cloud')]);
export type WhatsAppProvider = Static<typeof WhatsAppProvider>;

export const WhatsAppStatus = Type.Object({
  /** 'cloud' while the workspace has a Cloud API number connected (then it sends through it), else 'baileys'. */
  provider: WhatsAppProvider,
  /** The Cloud API number's quality rating as Meta last told it (GREEN, YELLOW, RED…); null for Baileys. */
  qualityRating: Type.Optional(Nullable(Type.String())),
  connected: Type.Boolean(),
  qrCode: Nullable(Type.String()),
  state: WhatsAppState,
  phone: Nullable(Type.String()),
  name: Nullable(Type.String()),
  since: Type.String({ format: 'date-time' }),
  lastEventAt: Nullable(Type.String({ format: 'date-time' })),
  error: Nullable(Type.String()),
  /** The attempt the owner last asked for showed a QR: without one the phone never took part in it. */
  qrShown: Type.Boolean(),
  /** A linked phone's session is stored: there is something for "Restablecer sesión" to reset. */
  hasSession: Type.Boolean(),
});
export type WhatsAppStatus = Static<typeof WhatsAppStatus>;

export const WhatsAppConnectResult = Type.Object({
  connected: Type.Boolean(),
  qrCode: Nullable(Type.String()),
  /** Only when there is neither a QR nor a connection: where the connection stands… */
  state: Type.Optional(WhatsAppState),
  /** …and, in Spanish, what the owner can do next. */
  message: Type.Optional(Type.String()),
});
export type WhatsAppConnectResult = Static<typeof WhatsAppConnectResult>;

export const WhatsAppHealth = Type.Object({
  state: WhatsAppState,
  since: Type.String({ format: 'date-time' }),
  lastEventAgeSeconds: Type.Union([Type.Integer(), Type.Null()]),
  reconnectsLastHour: Type.Integer(),
  decryptFailures: Type.Integer(),
  pendingMessages: Type.Integer(),
  error: Nullable(Type.String()),
  /** A phone was linked at least once: before that, activity, outages and unreadable messages describe no link. */
  everLinked: Type.Boolean(),
});
export type WhatsAppHealth = Static<typeof WhatsAppHealth>;

const Page = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, messages: { type: 'Página inválida', minimum: 'Página inválida' } });
const limit = (defaultValue: number) =>
  Type.Integer({ minimum: 1, maximum: 100, default: defaultValue, messages: { type: 'Límite inválido', minimum: 'Límite inválido', maximum: 'Máximo 100 por página' } });

export const Pagination = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() });

export const ConversationsQuery = Type.Object({
  page: Page,
  limit: limit(WHATSAPP_CONVERSATIONS_PAGE_SIZE),
  search: Type.Optional(Type.String({ maxLength: 100, ...noNul('Búsqueda inválida') })),
});
export type ConversationsQuery = Static<typeof ConversationsQuery>;

export const Conversation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  isGroup: Type.Boolean(),
  lastAt: Nullable(Type.String({ format: 'date-time' })),
  lastMessage: Type.Union([
    Type.Object({ text: Type.String(), direction: Type.Union([Type.Literal('incoming'), Type.Literal('outgoing')]) }),
    Type.Null(),
  ]),
  unread: Type.Integer(),
});
export type Conversation = Static<typeof Conversation>;

export const ConversationList = Type.Object({ data: Type.Array(Conversation), pagination: Pagination });
export type ConversationList = Static<typeof ConversationList>;

export const MessagesQuery = Type.Object({
  page: Page,
  limit: limit(WHATSAPP_MESSAGES_PAGE_SIZE),
  phoneNumber: Type.Optional(Type.String({ maxLength: 40, ...noNul('Número de teléfono inválido') })),
  jid: Type.Optional(Type.String({ maxLength: 200, ...noNul('Destinatario inválido') })),
});
export type MessagesQuery = Static<typeof MessagesQuery>;

export const MessageOrigin = Type.Union([
  Type.Literal('app'),
  Type.Literal('phone'),
  Type.Literal('keyword'),
  Type.Literal('ai'),
  Type.Literal('contact'),
]);
export type MessageOrigin = Static<typeof MessageOrigin>;

export const MessageStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('sent'),
  Type.Literal('delivered'),
  Type.Literal('read'),
  Type.Literal('failed'),
  Type.Literal('received'),
]);
export type MessageStatus = Static<typeof MessageStatus>;

export const MediaInfo = Type.Object({
  kind: Type.String(),
  size: Type.Union([Type.Integer(), Type.Null()]),
  caption: Type.Union([Type.String(), Type.Null()]),
});

export const WhatsAppMessage = Type.Object({
  id: Type.String(),
  chatId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  message: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  type: Type.Union([Type.Literal('incoming'), Type.Literal('outgoing')]),
  status: MessageStatus,
  origin: MessageOrigin,
  media: Type.Union([MediaInfo, Type.Null()]),
  /** Storage order: breaks ties between messages of the same second (WhatsApp stamps seconds). */
  seq: Type.Integer(),
  /** Why a send failed, in Spanish (status `failed` only). */
  error: Type.Optional(Nullable(Type.String())),
});
export type WhatsAppMessage = Static<typeof WhatsAppMessage>;

export const MessageList = Type.Object({ data: Type.Array(WhatsAppMessage), pagination: Pagination });
export type MessageList = Static<typeof MessageList>;

/** How many messages one `GET /whatsapp/messages/by-id` names at most (a customer's burst is a few lines). */
export const WHATSAPP_MESSAGES_BY_ID_MAX = 50;

/** The messages the events named (`messageId`), comma-separated: how the assistant reads a customer's burst. */
export const MessagesByIdQuery = Type.Object({
  ids: Type.String({
    pattern: `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(,[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}){0,${WHATSAPP_MESSAGES_BY_ID_MAX - 1}}$`,
    messages: { type: 'Identificador inválido', pattern: 'Identificador inválido' },
  }),
});
export type MessagesByIdQuery = Static<typeof MessagesByIdQuery>;

/** Chats named by their JIDs (what a caller kept from before it knew handles), up to 100 at once. */
export const WHATSAPP_HANDLES_MAX = 100;
export const ChatHandlesQuery = Type.Object({
  jids: Type.String({
    minLength: 3,
    maxLength: WHATSAPP_HANDLES_MAX * 201,
    pattern: `^[^\\s@,]+@[a-z.]+(,[^\\s@,]+@[a-z.]+){0,${WHATSAPP_HANDLES_MAX - 1}}$`,
    messages: { type: 'Identificador de chat de WhatsApp inválido', minLength: 'Identificador de chat de WhatsApp inválido', maxLength: 'Identificador de chat de WhatsApp inválido', pattern: 'Identificador de chat de WhatsApp inválido' },
  }),
});
export type ChatHandlesQuery = Static<typeof ChatHandlesQuery>;
/** Each asked JID's handle (see ChannelMessage), whether or not a chat was stored under it. */
export const ChatHandles = Type.Object({ handles: Type.Record(Type.String(), Type.String()) });
export type ChatHandles = Static<typeof ChatHandles>;

/**
 * A message for a caller that knows no WhatsApp JIDs (the team inbox), with its chat named channel-neutrally:
 * `handle` is `+34600111222` for a person's chat, `group:<id>` for a group, `lid:<id>` for a person whose number
 * WhatsApp has not shared; `POST /whatsapp/messages { handle }` sends to that chat. `chatName` is the chat's name
 * as the inbox shows it, null when only the number is known.
 */
export const ChannelMessage = Type.Composite([WhatsAppMessage, Type.Object({ handle: Type.String(), chatName: Nullable(Type.String()) })]);
export type ChannelMessage = Static<typeof ChannelMessage>;

/** The ones found among the user's messages, in the order WhatsApp stored them (`seq`); unknown ids are left out. */
export const MessagesById = Type.Object({ data: Type.Array(ChannelMessage) });
export type MessagesById = Static<typeof MessagesById>;

const sendText = Type.String({
  maxLength: WHATSAPP_TEXT_MAX,
  pattern: NO_NUL,
  messages: { type: 'Escribe un mensaje', maxLength: `El mensaje admite como máximo ${WHATSAPP_TEXT_MAX} caracteres`, pattern: 'El mensaje contiene caracteres no válidos' },
});

/**
 * `{ jid, type: 'text', text }`, the spec's `{ phoneNumber, message }` or `{ handle, text }` (a `ChannelMessage`'s
 * handle), exactly one recipient; origin 'ai' when the assistant writes.
 */
export const SendMessageBody = Type.Object(
  {
    jid: Type.Optional(Type.String({ minLength: 3, maxLength: 200, pattern: NO_NUL, messages: { minLength: 'Destinatario inválido', type: 'Destinatario inválido', pattern: 'Destinatario inválido' } })),
    handle: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NO_NUL, messages: { minLength: 'Destinatario inválido', type: 'Destinatario inválido', pattern: 'Destinatario inválido' } })),
    phoneNumber: Type.Optional(Type.String({ maxLength: 40, pattern: NO_NUL, messages: { type: 'Número de teléfono inválido', pattern: 'Número de teléfono inválido' } })),
    type: Type.Optional(Type.Literal('text', { messages: { const: 'Solo se pueden enviar mensajes de texto' } })),
    text: Type.Optional(sendText),
    message: Type.Optional(sendText),
    origin: Type.Optional(Type.Union([Type.Literal('app'), Type.Literal('ai')], { messages: { type: 'Origen inválido' } })),
    /**
     * The caller's own id for this send: the same id again answers the message it already queued instead of
     * queuing a second one (the assistant retrying a burst after a replica died must not write twice).
     */
    clientMessageId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Identificador inválido', type: 'Identificador inválido' } })),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

export const AutoReply = Type.Object({
  id: Type.String({ format: 'uuid' }),
  keyword: Type.String(),
  response: Type.String(),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type AutoReply = Static<typeof AutoReply>;

export const AutoReplyList = Type.Object({ data: Type.Array(AutoReply) });
export type AutoReplyList = Static<typeof AutoReplyList>;

const keywordText = Type.String({
  maxLength: 100,
  pattern: NO_NUL,
  messages: { type: 'Completa palabra clave y respuesta', maxLength: 'La palabra clave admite como máximo 100 caracteres', pattern: 'La palabra clave contiene caracteres no válidos' },
});
const responseText = Type.String({
  maxLength: WHATSAPP_TEXT_MAX,
  pattern: NO_NUL,
  messages: { type: 'Completa palabra clave y respuesta', maxLength: `La respuesta admite como máximo ${WHATSAPP_TEXT_MAX} caracteres`, pattern: 'La respuesta contiene caracteres no válidos' },
});
const activeFlag = Type.Boolean({ messages: { type: 'El estado activo debe ser verdadero o falso' } });

export const AutoReplyBody = Type.Object(
  {
    keyword: Type.Optional(keywordText),
    response: Type.Optional(responseText),
    active: Type.Optional(activeFlag),
    isActive: Type.Optional(activeFlag),
  },
  { additionalProperties: false },
);
export type AutoReplyBody = Static<typeof AutoReplyBody>;

export const AutoReplyPatch = AutoReplyBody;
export type AutoReplyPatch = Static<typeof AutoReplyPatch>;

export const WhatsAppStats = Type.Object({
  sent: Type.Integer(),
  received: Type.Integer(),
  contacts: Type.Integer(),
  autoReplies: Type.Integer(),
});
export type WhatsAppStats = Static<typeof WhatsAppStats>;

export const SyncContactsResult = Type.Object({ created: Type.Integer(), updated: Type.Integer() });
export type SyncContactsResult = Static<typeof SyncContactsResult>;
