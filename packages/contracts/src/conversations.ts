import { Type, type Static, type TLiteral } from '@sinclair/typebox';

/**
 * The team's inbox: a conversation is a record of its own, whatever channel brought it. The model names no
 * provider: a channel says how a customer is reached (`handle`: `+34600111222` for a WhatsApp number), and
 * only the channel's service knows more than that.
 */
export const CONVERSATIONS_PAGE_SIZE = 20;
export const CONVERSATION_MESSAGES_PAGE_SIZE = 30;
export const CONVERSATION_TEXT_MAX = 4096;
/** How much of the last message the list shows. */
export const CONVERSATION_PREVIEW_MAX = 200;

const NO_NUL = '^[^\\u0000]*$';
const Uuid = (message: string) => Type.String({ format: 'uuid', messages: { format: message, type: message } });
const DateTime = Type.String({ format: 'date-time' });

/** The message for every way a value can miss a set of choices (each variant reports its own). */
const refused = (message: string) => ({ messages: { const: message, type: message, format: message } });
const CHANNEL = refused('Canal inválido');
const STATUS = refused('Estado inválido');
const RULE = refused('Regla de asignación inválida');
const ASSIGNEE = refused('Filtro de asignación inválido');

/**
 * The product's channels, written once: the events, the webhooks, the filters, analytics and the screen's
 * labels read this list, and the inbox's registry (services/inbox/src/channels.ts) must build each one.
 */
export const CONVERSATION_CHANNELS = ['whatsapp', 'web'] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
/** One literal schema per name, in the list's order and with the list's types. */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
export const ConversationChannel = Type.Union(CONVERSATION_CHANNELS.map((name) => Type.Literal(name, CHANNEL)) as Literals<typeof CONVERSATION_CHANNELS>);
export const ConversationStatus = Type.Union([Type.Literal('open', STATUS), Type.Literal('pending', STATUS), Type.Literal('resolved', STATUS)]);
export type ConversationStatus = Static<typeof ConversationStatus>;

/** Who wrote an entry of the thread: the customer, a member, the assistant, a keyword rule, or the number's own phone. */
export const EntryAuthor = Type.Union([
  Type.Literal('customer'),
  Type.Literal('member'),
  Type.Literal('assistant'),
  Type.Literal('keyword'),
  Type.Literal('phone'),
]);
export type EntryAuthor = Static<typeof EntryAuthor>;

export const InboxConversation = Type.Object({
  id: Type.String({ format: 'uuid' }),
  channel: ConversationChannel,
  handle: Type.String(),
  /** The name the channel knows the customer by; null when only the handle is known. */
  name: Type.Union([Type.String(), Type.Null()]),
  contactId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  status: ConversationStatus,
  assigneeId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  /** Whether the assistant answers here: a member's reply or an assignment to a person pauses it. */
  assistantActive: Type.Boolean(),
  lastMessageAt: Type.Union([DateTime, Type.Null()]),
  lastMessagePreview: Type.Union([Type.String(), Type.Null()]),
  unread: Type.Integer({ minimum: 0 }),
  createdAt: DateTime,
});
export type InboxConversation = Static<typeof InboxConversation>;

const Page = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, messages: { type: 'Página inválida', minimum: 'Página inválida', maximum: 'Página inválida' } });
const limit = (defaultValue: number) =>
  Type.Integer({ minimum: 1, maximum: 100, default: defaultValue, messages: { type: 'Límite inválido', minimum: 'Límite inválido', maximum: 'Máximo 100 por página' } });

/** `me`, `none` (unassigned), `any`, or a member's id. */
export const AssigneeFilter = Type.Union(
  [Type.Literal('me', ASSIGNEE), Type.Literal('none', ASSIGNEE), Type.Literal('any', ASSIGNEE), Type.String({ format: 'uuid', ...ASSIGNEE })],
  { default: 'any' },
);
export const StatusFilter = Type.Union(
  [Type.Literal('open', STATUS), Type.Literal('pending', STATUS), Type.Literal('resolved', STATUS), Type.Literal('any', STATUS)],
  { default: 'any' },
);

export const InboxQuery = Type.Object({
  assignee: AssigneeFilter,
  status: StatusFilter,
  channel: Type.Optional(ConversationChannel),
  q: Type.Optional(Type.String({ maxLength: 100, pattern: NO_NUL, messages: { maxLength: 'Búsqueda demasiado larga', pattern: 'Búsqueda inválida' } })),
  page: Page,
  limit: limit(CONVERSATIONS_PAGE_SIZE),
});
export type InboxQuery = Static<typeof InboxQuery>;

export const InboxList = Type.Object({
  data: Type.Array(InboxConversation),
  pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() }),
});
export type InboxList = Static<typeof InboxList>;

/** A customer's conversation on a channel, by their handle: what the assistant's switch and a customer run ask. */
export const ConversationLookupQuery = Type.Object({
  channel: ConversationChannel,
  handle: Type.String({ minLength: 1, maxLength: 200, pattern: NO_NUL, messages: { minLength: 'Destinatario inválido', maxLength: 'Destinatario inválido', pattern: 'Destinatario inválido' } }),
});
export type ConversationLookupQuery = Static<typeof ConversationLookupQuery>;

export const InboxCountsQuery = Type.Object({ status: StatusFilter });
export type InboxCountsQuery = Static<typeof InboxCountsQuery>;
/** The tabs "Mías / Sin asignar / Todas", for one status filter, and how many of all have unread messages (the tab title). */
export const InboxCounts = Type.Object({ mine: Type.Integer(), unassigned: Type.Integer(), all: Type.Integer(), unread: Type.Integer() });
export type InboxCounts = Static<typeof InboxCounts>;

/**
 * What a line of a thread is: a message to or from the customer, a note only members see, or the assistant's
 * suggested answer (`author: 'assistant'`), shown to members only and never sent: a member edits and sends it.
 */
export const EntryKind = Type.Union([Type.Literal('message'), Type.Literal('note'), Type.Literal('suggestion')]);
export type EntryKind = Static<typeof EntryKind>;

/** One line of a thread: a message to or from the customer, a note or a suggestion only members see. */
export const ConversationEntry = Type.Object({
  id: Type.String({ format: 'uuid' }),
  conversationId: Type.String({ format: 'uuid' }),
  kind: EntryKind,
  direction: Type.Union([Type.Literal('incoming'), Type.Literal('outgoing'), Type.Null()]),
  author: EntryAuthor,
  /** The member who wrote it (a member's message or a note), and their name as it was then. */
  authorId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  authorName: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  at: DateTime,
});
export type ConversationEntry = Static<typeof ConversationEntry>;

export const ConversationContact = Type.Object({
  id: Type.String({ format: 'uuid' }),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
});

export const ConversationDetail = Type.Intersect([
  InboxConversation,
  Type.Object({
    contact: Type.Union([ConversationContact, Type.Null()]),
    /** The latest entries, oldest first; `hasMore` when older ones remain (`GET …/messages?before=`). */
    messages: Type.Array(ConversationEntry),
    hasMore: Type.Boolean(),
  }),
]);
export type ConversationDetail = Static<typeof ConversationDetail>;

export const ConversationMessagesQuery = Type.Object({
  /** An entry's id: the page holds the entries before it. */
  before: Type.Optional(Uuid('Identificador inválido')),
  limit: limit(CONVERSATION_MESSAGES_PAGE_SIZE),
});
export type ConversationMessagesQuery = Static<typeof ConversationMessagesQuery>;

/** Oldest first; `hasMore` when older entries remain. */
export const ConversationEntries = Type.Object({ data: Type.Array(ConversationEntry), hasMore: Type.Boolean() });
export type ConversationEntries = Static<typeof ConversationEntries>;

const Text = Type.String({
  minLength: 1,
  maxLength: CONVERSATION_TEXT_MAX,
  pattern: '\\S',
  messages: {
    type: 'Escribe un mensaje',
    minLength: 'Escribe un mensaje',
    pattern: 'Escribe un mensaje',
    maxLength: `El mensaje admite como máximo ${CONVERSATION_TEXT_MAX} caracteres`,
  },
});

export const SendConversationMessageBody = Type.Object(
  {
    text: Text,
    /** Send even though someone else answered after the sender last read the conversation. */
    force: Type.Optional(Type.Boolean({ messages: { type: 'Valor inválido' } })),
  },
  { additionalProperties: false },
);
export type SendConversationMessageBody = Static<typeof SendConversationMessageBody>;

/**
 * Entries of one conversation, as the assistant reads them: by id (the messages it is about to answer), or the
 * `latest` ones (its tool that reads the customer's thread). Exactly one of the two.
 */
export const CONVERSATION_EXCERPT_MAX = 100;
const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const ConversationExcerptQuery = Type.Object({
  latest: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, messages: { type: 'Límite inválido', minimum: 'Límite inválido', maximum: 'Máximo 50 mensajes' } })),
  ids: Type.Optional(Type.String({
    minLength: 36,
    maxLength: CONVERSATION_EXCERPT_MAX * 37,
    pattern: `^${UUID_TEXT}(,${UUID_TEXT})*$`,
    messages: { minLength: 'Identificadores inválidos', maxLength: `Como máximo ${CONVERSATION_EXCERPT_MAX} identificadores`, pattern: 'Identificadores inválidos' },
  })),
});
export type ConversationExcerptQuery = Static<typeof ConversationExcerptQuery>;
/** The conversation as it is now, with those of the asked entries that exist (oldest first). */
export const ConversationExcerpt = Type.Object({ conversation: InboxConversation, entries: Type.Array(ConversationEntry) });
export type ConversationExcerpt = Static<typeof ConversationExcerpt>;

/**
 * The assistant's answer to the customer: the workspace's own work, never a member's request. `answerId` names
 * the send (the burst it answers): the same id again answers the message already sent.
 */
export const AssistantAnswerBody = Type.Object({ text: Text, answerId: Uuid('Identificador inválido') }, { additionalProperties: false });
export type AssistantAnswerBody = Static<typeof AssistantAnswerBody>;

export const ConversationNoteBody = Type.Object({ text: Text }, { additionalProperties: false });
export type ConversationNoteBody = Static<typeof ConversationNoteBody>;

/** The thread's latest messages the assistant reads to suggest an answer (notes left out, but the instruction). */
export const SUGGESTION_CONTEXT_MESSAGES = 20;

/** `POST /conversations/:id/suggestions`: what the member asks of the assistant's draft, if anything. */
export const ConversationSuggestionBody = Type.Object(
  {
    instruction: Type.Optional(
      Type.String({
        maxLength: CONVERSATION_TEXT_MAX,
        pattern: NO_NUL,
        messages: {
          type: 'La indicación debe ser texto',
          pattern: 'La indicación contiene caracteres no válidos',
          maxLength: `La indicación admite como máximo ${CONVERSATION_TEXT_MAX} caracteres`,
        },
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConversationSuggestionBody = Static<typeof ConversationSuggestionBody>;

export const UpdateConversationBody = Type.Object(
  {
    status: Type.Optional(ConversationStatus),
    assigneeId: Type.Optional(Type.Union([Uuid('Miembro inválido'), Type.Null()], { messages: { type: 'Miembro inválido' } })),
    /** true hands the conversation back to the assistant ("Devolver al asistente"); false pauses it. */
    assistantActive: Type.Optional(Type.Boolean({ messages: { type: 'Valor inválido' } })),
  },
  { additionalProperties: false, minProperties: 1, messages: { minProperties: 'Nada que cambiar' } },
);
export type UpdateConversationBody = Static<typeof UpdateConversationBody>;


export const InboxSettings = Type.Object({
  /** Who a new or reopened conversation goes to: nobody, the next available member in turn, or the one with fewest open. */
  assignment: Type.Union([Type.Literal('none', RULE), Type.Literal('round_robin', RULE), Type.Literal('fewest_open', RULE)]),
  /** Only the assignee may answer an assigned conversation. */
  onlyAssigneeSends: Type.Boolean({ messages: { type: 'Valor inválido' } }),
});
export type InboxSettings = Static<typeof InboxSettings>;
export type AssignmentRule = InboxSettings['assignment'];
export const UpdateInboxSettingsBody = Type.Partial(InboxSettings, { additionalProperties: false, minProperties: 1, messages: { minProperties: 'Nada que cambiar' } });
export type UpdateInboxSettingsBody = Static<typeof UpdateInboxSettingsBody>;

export const InboxMember = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: Type.String(),
  /** "Disponible" (true) or "Ausente": automatic assignment only reaches available members. */
  available: Type.Boolean(),
  /** Open and pending conversations assigned to them. */
  open: Type.Integer(),
});
export const InboxMemberList = Type.Object({ data: Type.Array(InboxMember) });
export type InboxMemberList = Static<typeof InboxMemberList>;

export const AvailabilityBody = Type.Object({ available: Type.Boolean({ messages: { type: 'Valor inválido' } }) }, { additionalProperties: false });
export type AvailabilityBody = Static<typeof AvailabilityBody>;

/** A note that named me (`@Nombre`): what the inbox notifies. */
export const ConversationMention = Type.Object({
  id: Type.String({ format: 'uuid' }),
  conversationId: Type.String({ format: 'uuid' }),
  entryId: Type.String({ format: 'uuid' }),
  byName: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  at: DateTime,
  seen: Type.Boolean(),
});
export const ConversationMentionList = Type.Object({ data: Type.Array(ConversationMention) });
export type ConversationMentionList = Static<typeof ConversationMentionList>;

/** 409 to a stale send: what someone else answered since the sender last read the thread (`force: true` sends anyway). */
export const ConversationSendConflict = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  error: Type.String(),
  message: Type.String(),
  answer: ConversationEntry,
});
export type ConversationSendConflict = Static<typeof ConversationSendConflict>;

/** How long a member counts as viewing a conversation, and as typing in it, after their client last said so. */
export const PRESENCE_VIEWING_MS = 30_000;
export const PRESENCE_TYPING_MS = 6_000;

/** "I am looking at this conversation" (renewed while the thread is open), and whether I am typing. */
export const PresenceBody = Type.Object(
  {
    viewing: Type.Boolean({ messages: { type: 'Valor inválido' } }),
    typing: Type.Optional(Type.Boolean({ messages: { type: 'Valor inválido' } })),
  },
  { additionalProperties: false },
);
export type PresenceBody = Static<typeof PresenceBody>;

const PresentMember = Type.Object({ userId: Type.String({ format: 'uuid' }), name: Type.String(), until: DateTime });
/** Who else is on a conversation now (each until `until`, unless renewed): what the live stream's `presence` event carries. */
export const ConversationPresence = Type.Object({
  conversationId: Type.String({ format: 'uuid' }),
  viewing: Type.Array(PresentMember),
  typing: Type.Array(PresentMember),
});
export type ConversationPresence = Static<typeof ConversationPresence>;
