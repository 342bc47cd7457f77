import { Type, type Static } from '@sinclair/typebox';
import { CONVERSATION_TEXT_MAX, ConversationChannel, SUGGESTION_CONTEXT_MESSAGES } from './conversations.js';

/**
 * Messages for a closed list of strings. They sit on every literal of the union: for a value matching none,
 * the validator reports the first branch's failure, and that is the message the client reads.
 */
const choice = (message: string) => ({ messages: { const: message, type: message } });

// --- OpenAI key ---------------------------------------------------------------------------------------

export const OPENAI_KEY_PREFIX = 'sk-';
export const OPENAI_KEY_MAX_LENGTH = 500;

/** The key itself is checked (trimmed, prefix, characters) by the ai service so each case gets its own message. */
export const OpenAiKeyBody = Type.Object(
  {
    apiKey: Type.String({
      maxLength: OPENAI_KEY_MAX_LENGTH,
      messages: { required: 'Ingresa tu API key', type: 'Ingresa tu API key', maxLength: 'La API key es demasiado larga' },
    }),
  },
  { additionalProperties: false },
);
export type OpenAiKeyBody = Static<typeof OpenAiKeyBody>;

/**
 * Only the last 4 characters ever leave the server. valid: false once OpenAI rejected the key (401) in a run,
 * true again after a run succeeds or a new key is saved; the ai service always sends it.
 */
export const OpenAiKeyStatus = Type.Object({
  exists: Type.Boolean(),
  last4: Type.Union([Type.String(), Type.Null()]),
  valid: Type.Optional(Type.Boolean()),
});
export type OpenAiKeyStatus = Static<typeof OpenAiKeyStatus>;

export const OpenAiKeySaved = Type.Object({ success: Type.Literal(true), last4: Type.String() });
export type OpenAiKeySaved = Static<typeof OpenAiKeySaved>;

// --- Assistant configuration --------------------------------------------------------------------------

// Literal tuples written out: Fastify's type provider reads a union built from a mapped array as never.
const modelChoice = choice('Modelo no válido: usa gpt-4o-mini, gpt-4o o gpt-4.1-mini');
export const AiModel = Type.Union([
  Type.Literal('gpt-4o-mini', modelChoice),
  Type.Literal('gpt-4o', modelChoice),
  Type.Literal('gpt-4.1-mini', modelChoice),
]);
export type AiModel = Static<typeof AiModel>;
export const AI_MODELS: AiModel[] = AiModel.anyOf.map((literal) => literal.const);

const sourceChoice = choice('Fuente interna no válida: usa contacts, emails, whatsapp o calendar');
export const InternalSource = Type.Union([
  Type.Literal('contacts', sourceChoice),
  Type.Literal('emails', sourceChoice),
  Type.Literal('whatsapp', sourceChoice),
  Type.Literal('calendar', sourceChoice),
]);
export type InternalSource = Static<typeof InternalSource>;
export const INTERNAL_SOURCES: InternalSource[] = InternalSource.anyOf.map((literal) => literal.const);

export const ASSISTANT_LIMITS = {
  temperature: { min: 0, max: 1, step: 0.1 },
  maxTokens: { min: 100, max: 4000 },
  nameMaxLength: 80,
  goalMaxLength: 1000,
  toneMaxLength: 200,
  systemPromptMaxLength: 10_000,
  variableMaxLength: 60,
  maxVariables: 50,
  variableValueMaxLength: 500,
  maxRepliesPerChatPerDay: { min: 1, max: 200 },
  dailyBudgetUsd: { min: 0, max: 1000 },
  handoffPhraseMaxLength: 500,
} as const;

const L = ASSISTANT_LIMITS;

const variableList = (label: string) =>
  Type.Array(
    Type.String({
      maxLength: L.variableMaxLength,
      messages: { maxLength: `Cada ${label} admite como máximo ${L.variableMaxLength} caracteres`, type: `Cada ${label} debe ser texto` },
    }),
    { maxItems: L.maxVariables, messages: { maxItems: `Máximo ${L.maxVariables} ${label}s`, type: `Las ${label}s deben ser una lista` } },
  );

/**
 * The assistant's configuration, exactly the fields the screen edits. PUT replaces it whole, so every field
 * is required: a client that saves what GET returned always sends a valid body.
 */
export const AssistantConfig = Type.Object(
  {
    name: Type.String({
      maxLength: L.nameMaxLength,
      messages: { required: 'El nombre del asistente es requerido', maxLength: `El nombre admite como máximo ${L.nameMaxLength} caracteres` },
    }),
    goal: Type.String({ maxLength: L.goalMaxLength, messages: { maxLength: `El objetivo admite como máximo ${L.goalMaxLength} caracteres` } }),
    tone: Type.String({ maxLength: L.toneMaxLength, messages: { maxLength: `El tono admite como máximo ${L.toneMaxLength} caracteres` } }),
    systemPrompt: Type.String({
      maxLength: L.systemPromptMaxLength,
      messages: { maxLength: `El prompt admite como máximo ${L.systemPromptMaxLength} caracteres` },
    }),
    variables: variableList('variable'),
    customVars: variableList('variable personalizada'),
    internalSources: Type.Array(
      InternalSource,
      { uniqueItems: true, messages: { uniqueItems: 'Las fuentes internas no pueden repetirse', type: 'Las fuentes internas deben ser una lista' } },
    ),
    allowWeb: Type.Boolean({ messages: { type: 'La búsqueda web (allowWeb) debe ser verdadero o falso' } }),
    model: AiModel,
    temperature: Type.Number({
      minimum: L.temperature.min,
      maximum: L.temperature.max,
      messages: {
        minimum: 'La temperatura debe estar entre 0 y 1',
        maximum: 'La temperatura debe estar entre 0 y 1',
        type: 'La temperatura debe ser un número entre 0 y 1',
      },
    }),
    maxTokens: Type.Integer({
      minimum: L.maxTokens.min,
      maximum: L.maxTokens.max,
      messages: {
        minimum: `Los tokens máximos deben estar entre ${L.maxTokens.min} y ${L.maxTokens.max}`,
        maximum: `Los tokens máximos deben estar entre ${L.maxTokens.min} y ${L.maxTokens.max}`,
        type: `Los tokens máximos deben ser un número entero entre ${L.maxTokens.min} y ${L.maxTokens.max}`,
      },
    }),
    // Added with the automatic answers: optional in a PUT (a client that predates them keeps what is stored),
    // always present in what the server answers.
    /** The value each variable stands for, e.g. `{ "{precio}": "25 €" }`; `{nombre_cliente}` comes from the contact. */
    variableValues: Type.Optional(
      Type.Record(
        Type.String({ maxLength: L.variableMaxLength }),
        Type.String({
          maxLength: L.variableValueMaxLength,
          messages: { maxLength: `Cada valor de variable admite como máximo ${L.variableValueMaxLength} caracteres`, type: 'Cada valor de variable debe ser texto' },
        }),
        { maxProperties: L.maxVariables * 2, messages: { maxProperties: 'Demasiados valores de variables', type: 'Los valores de las variables deben ser un objeto' } },
      ),
    ),
    /** Answer incoming WhatsApp messages automatically; off by default so nobody is charged by surprise. */
    autoReply: Type.Optional(Type.Boolean({ messages: { type: 'La respuesta automática (autoReply) debe ser verdadero o falso' } })),
    maxRepliesPerChatPerDay: Type.Optional(
      Type.Integer({
        minimum: L.maxRepliesPerChatPerDay.min,
        maximum: L.maxRepliesPerChatPerDay.max,
        messages: {
          minimum: `Las respuestas por chat y día deben estar entre ${L.maxRepliesPerChatPerDay.min} y ${L.maxRepliesPerChatPerDay.max}`,
          maximum: `Las respuestas por chat y día deben estar entre ${L.maxRepliesPerChatPerDay.min} y ${L.maxRepliesPerChatPerDay.max}`,
          type: `Las respuestas por chat y día deben ser un número entero entre ${L.maxRepliesPerChatPerDay.min} y ${L.maxRepliesPerChatPerDay.max}`,
        },
      }),
    ),
    dailyBudgetUsd: Type.Optional(
      Type.Number({
        minimum: L.dailyBudgetUsd.min,
        maximum: L.dailyBudgetUsd.max,
        messages: {
          minimum: `El presupuesto diario debe estar entre ${L.dailyBudgetUsd.min} y ${L.dailyBudgetUsd.max} USD`,
          maximum: `El presupuesto diario debe estar entre ${L.dailyBudgetUsd.min} y ${L.dailyBudgetUsd.max} USD`,
          type: 'El presupuesto diario debe ser un número en USD',
        },
      }),
    ),
    /** Offer free slots and book a Google Meet when the calendar is connected; off by default. */
    canBookMeetings: Type.Optional(Type.Boolean({ messages: { type: 'Agendar reuniones (canBookMeetings) debe ser verdadero o falso' } })),
    /** Sent when a customer asks for a person; the chat then pauses until the owner resumes it. */
    handoffPhrase: Type.Optional(
      Type.String({
        maxLength: L.handoffPhraseMaxLength,
        messages: { maxLength: `La frase de traspaso admite como máximo ${L.handoffPhraseMaxLength} caracteres`, type: 'La frase de traspaso debe ser texto' },
      }),
    ),
  },
  { additionalProperties: false },
);
export type AssistantConfig = Static<typeof AssistantConfig>;

/** GET /ai/assistant: wrapped in `data`, as the original client reads it. */
export const AssistantConfigResponse = Type.Object({ data: AssistantConfig });
export type AssistantConfigResponse = Static<typeof AssistantConfigResponse>;

/** PUT /ai/assistant: the configuration as stored (trimmed, de-duplicated). */
export const AssistantConfigSaved = Type.Object({ success: Type.Literal(true), data: AssistantConfig });
export type AssistantConfigSaved = Static<typeof AssistantConfigSaved>;

/**
 * What GET answers before anything is saved, and what "Restaurar por defecto" restores: a Spanish sales and
 * support assistant answering on WhatsApp. Shared by the server and the web app so both restore the same text.
 */
export const DEFAULT_ASSISTANT_CONFIG: AssistantConfig = {
  name: 'Asistente de Ventas',
  goal:
    'Atender por WhatsApp a clientes y posibles clientes: resolver sus dudas sobre productos, precios y ' +
    'horarios, y acompañarlos hasta completar la compra o agendar una cita con el equipo.',
  tone: 'Cercano, amable y profesional; frases cortas y claras, tuteando al cliente',
  systemPrompt: [
    'Eres el asistente virtual de ventas y atención al cliente de nuestra empresa en WhatsApp.',
    '',
    'Cómo respondes:',
    '- Saluda a {nombre_cliente} por su nombre y responde siempre en español.',
    '- Escribe mensajes breves, de 2 a 4 frases, fáciles de leer en el móvil. Usa emojis con moderación.',
    '- Si preguntan por {producto}, explica sus beneficios con sencillez e indica el precio: {precio}.',
    '- Si el cliente quiere comprar, comparte el enlace de pago: {enlace_pago}.',
    '- Nuestro horario de atención es {horario_atencion}. Fuera de ese horario, avisa de que una persona del equipo responderá en cuanto esté disponible.',
    '',
    'Límites:',
    '- Usa solo la información de las fuentes disponibles. Si no sabes algo, dilo con honestidad y ofrece pasar la consulta a una persona del equipo.',
    '- No inventes precios, descuentos, plazos de entrega ni políticas.',
    '- Nunca pidas contraseñas, códigos de verificación ni los datos completos de una tarjeta.',
  ].join('\n'),
  variables: ['{nombre_cliente}', '{producto}', '{precio}', '{horario_atencion}', '{enlace_pago}'],
  customVars: [],
  internalSources: [...INTERNAL_SOURCES],
  allowWeb: false,
  model: 'gpt-4o-mini',
  temperature: 0.3,
  maxTokens: 400,
  variableValues: {},
  autoReply: false,
  maxRepliesPerChatPerDay: 20,
  dailyBudgetUsd: 1,
  canBookMeetings: false,
  handoffPhrase: 'Te paso con una persona del equipo. Te responderá en cuanto pueda. 🙌',
};

// --- Assistant runs ---------------------------------------------------------------------------------------

export const AI_RUN_MESSAGE_MAX_LENGTH = 4000;

/** A WhatsApp chat id as Baileys writes it (`5215512345678@s.whatsapp.net`, `…@lid`, `…@g.us`). */
export const Jid = Type.String({
  minLength: 3,
  maxLength: 200,
  pattern: '^[^\\s@]+@[a-z.]+$',
  messages: { pattern: 'Identificador de chat de WhatsApp inválido', minLength: 'Identificador de chat de WhatsApp inválido', type: 'Identificador de chat de WhatsApp inválido' },
});

/** POST /ai/run: a question from the owner, or a customer's message in the context of a contact or chat. */
export const AiRunBody = Type.Object(
  {
    message: Type.String({
      minLength: 1,
      maxLength: AI_RUN_MESSAGE_MAX_LENGTH,
      messages: {
        required: 'Escribe un mensaje para el asistente',
        minLength: 'Escribe un mensaje para el asistente',
        maxLength: `El mensaje admite como máximo ${AI_RUN_MESSAGE_MAX_LENGTH} caracteres`,
        type: 'El mensaje debe ser texto',
      },
    }),
    contactId: Type.Optional(Type.String({ format: 'uuid', messages: { format: 'Identificador de contacto inválido' } })),
    jid: Type.Optional(Jid),
    /** Accepted as the screen sends it; a run through the API never sends anything nor counts as a chat's answer. */
    dryRun: Type.Optional(Type.Boolean({ messages: { type: 'dryRun debe ser verdadero o falso' } })),
  },
  { additionalProperties: false },
);
export type AiRunBody = Static<typeof AiRunBody>;

export const AiUsage = Type.Object({ promptTokens: Type.Integer(), completionTokens: Type.Integer(), totalTokens: Type.Integer() });
export type AiUsage = Static<typeof AiUsage>;

/** A tool the model called: its arguments as the model sent them and a one-line Spanish summary of what it found. */
export const AiToolCall = Type.Object({
  name: Type.String(),
  arguments: Type.Record(Type.String(), Type.Unknown()),
  summary: Type.String(),
});
export type AiToolCall = Static<typeof AiToolCall>;

export const AiRunResult = Type.Object({
  answer: Type.String(),
  model: Type.String(),
  usage: AiUsage,
  costUsd: Type.Number(),
  toolCalls: Type.Array(AiToolCall),
});
export type AiRunResult = Static<typeof AiRunResult>;

// --- Suggested answers (the team inbox) -----------------------------------------------------------------

const invalid = (message: string) => ({ messages: { type: message, minLength: message, maxLength: message, pattern: message, format: message, const: message } });
const LINE_AUTHOR = invalid('Autor de la línea inválido');

/** A line of the conversation the assistant reads: who wrote it (the customer, a person of the team, the assistant) and what. */
export const AiSuggestionLine = Type.Object(
  {
    author: Type.Union([Type.Literal('customer', LINE_AUTHOR), Type.Literal('member', LINE_AUTHOR), Type.Literal('assistant', LINE_AUTHOR)]),
    text: Type.String({ maxLength: CONVERSATION_TEXT_MAX, ...invalid(`Cada línea admite como máximo ${CONVERSATION_TEXT_MAX} caracteres`) }),
  },
  { additionalProperties: false },
);
export type AiSuggestionLine = Static<typeof AiSuggestionLine>;

/**
 * POST /ai/suggestions, asked by the team inbox: a draft answer to the customer of a conversation. The
 * conversation's latest lines (oldest first), the customer's handle and contact as the inbox knows them, and
 * what the member asked for. The tools the model gets are bound to that customer, as an automatic answer's.
 */
export const AiSuggestionBody = Type.Object(
  {
    conversationId: Type.String({ format: 'uuid', ...invalid('Identificador inválido') }),
    channel: ConversationChannel,
    handle: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$', ...invalid('Destinatario inválido') }),
    contactId: Type.Union([Type.String({ format: 'uuid', ...invalid('Identificador de contacto inválido') }), Type.Null()], invalid('Identificador de contacto inválido')),
    lines: Type.Array(AiSuggestionLine, {
      maxItems: SUGGESTION_CONTEXT_MESSAGES,
      messages: { maxItems: `Como máximo ${SUGGESTION_CONTEXT_MESSAGES} líneas`, type: 'Las líneas deben ser una lista' },
    }),
    instruction: Type.Optional(Type.String({ maxLength: CONVERSATION_TEXT_MAX, pattern: '^[^\\u0000]*$', ...invalid(`La indicación admite como máximo ${CONVERSATION_TEXT_MAX} caracteres`) })),
  },
  { additionalProperties: false },
);
export type AiSuggestionBody = Static<typeof AiSuggestionBody>;

// --- Per-chat state of the automatic answers ------------------------------------------------------------

/**
 * Why the assistant is silent in a chat: paused by the owner, the owner wrote from the phone (30 minutes), a
 * customer asked for a person, the chat's daily answers or the account's daily budget are used up, or a person
 * of the team took the conversation over in the inbox (until it is resolved or handed back).
 */
export const AiChatPauseReason = Type.Union([
  Type.Literal('manual'),
  Type.Literal('owner_takeover'),
  Type.Literal('handoff'),
  Type.Literal('daily_cap'),
  Type.Literal('daily_budget'),
  Type.Literal('team'),
]);
export type AiChatPauseReason = Static<typeof AiChatPauseReason>;

export const AiChatParams = Type.Object({ jid: Jid });
export type AiChatParams = Static<typeof AiChatParams>;

export const AiChatState = Type.Object({
  paused: Type.Boolean(),
  /** When the pause ends by itself (owner takeover); null for a pause that lasts until the owner resumes. */
  pausedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  reason: Type.Union([AiChatPauseReason, Type.Null()]),
});
export type AiChatState = Static<typeof AiChatState>;

export const AiChatPauseBody = Type.Object(
  { paused: Type.Boolean({ messages: { required: 'Indica si el asistente queda en pausa (paused)', type: 'paused debe ser verdadero o falso' } }) },
  { additionalProperties: false },
);
export type AiChatPauseBody = Static<typeof AiChatPauseBody>;

/** GET /ai/usage/today: what the assistant spent today (UTC) against the daily budget of the automatic answers. */
export const AiUsageToday = Type.Object({
  spentUsd: Type.Number(),
  dailyBudgetUsd: Type.Number(),
  /** The automatic answers stopped for the day: the budget is spent. */
  budgetReached: Type.Boolean(),
});
export type AiUsageToday = Static<typeof AiUsageToday>;
