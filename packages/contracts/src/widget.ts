import { Type, type Static } from '@sinclair/typebox';

/**
 * The chat widget of the owner's website ("Chat web"): the owner's settings behind a session, and what the
 * widget itself calls, public, by the widget's key. A visitor's conversation lands in the team inbox with
 * channel `web` and handle `visitor:<visitorId>`.
 */
export const WIDGET_NAME_MAX = 60;
export const WIDGET_GREETING_MAX = 300;
export const WIDGET_ORIGINS_MAX = 20;
/** A visitor's message, smaller than a member's: anyone on the internet can write one. */
export const WIDGET_TEXT_MAX = 2000;
export const WIDGET_PROFILE_FIELD_MAX = 120;
/** Per visitor, and per address, in a minute: beyond that 429. */
export const WIDGET_MESSAGES_PER_MINUTE = 20;
export const WIDGET_ADDRESS_CALLS_PER_MINUTE = 120;

const NO_NUL = '^[^\\u0000]*$';
const DateTime = Type.String({ format: 'date-time' });
const WIDGET_KEY = '^wk_[A-Za-z0-9_-]{22}$';

const Name = Type.String({
  minLength: 1,
  maxLength: WIDGET_NAME_MAX,
  pattern: '\\S',
  messages: { type: 'El nombre es requerido', minLength: 'El nombre es requerido', pattern: 'El nombre es requerido', maxLength: `El nombre admite como máximo ${WIDGET_NAME_MAX} caracteres` },
});
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', messages: { type: 'Color inválido: usa el formato #RRGGBB', pattern: 'Color inválido: usa el formato #RRGGBB' } });
const Greeting = Type.String({
  minLength: 1,
  maxLength: WIDGET_GREETING_MAX,
  pattern: '\\S',
  messages: { type: 'El saludo es requerido', minLength: 'El saludo es requerido', pattern: 'El saludo es requerido', maxLength: `El saludo admite como máximo ${WIDGET_GREETING_MAX} caracteres` },
});
/** A web origin as a browser sends it: scheme, host and port, nothing after. */
const Origin = Type.String({
  maxLength: 200,
  pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$',
  messages: { type: 'Origen inválido', maxLength: 'Origen inválido', pattern: 'Origen inválido: escribe solo el esquema y el dominio, como https://www.tu-negocio.es' },
});
const Origins = Type.Array(Origin, {
  maxItems: WIDGET_ORIGINS_MAX,
  messages: { type: 'Lista de orígenes inválida', maxItems: `Como máximo ${WIDGET_ORIGINS_MAX} orígenes` },
});

export const WidgetBody = Type.Object(
  { name: Name, color: Color, greeting: Greeting, allowedOrigins: Origins },
  { additionalProperties: false },
);
export type WidgetBody = Static<typeof WidgetBody>;

export const WidgetPatch = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    greeting: Type.Optional(Greeting),
    allowedOrigins: Type.Optional(Origins),
    /** Switched off, visitors get no chat and members cannot answer; the key and the snippet stay. */
    enabled: Type.Optional(Type.Boolean({ messages: { type: 'Indica si el chat web está activo (true o false)' } })),
  },
  { additionalProperties: false, minProperties: 1, messages: { minProperties: 'Indica qué quieres cambiar' } },
);
export type WidgetPatch = Static<typeof WidgetPatch>;

/** The owner's widget: its public key, and the snippet to paste in the website (the key is not a secret). */
export const WidgetSettings = Type.Object({
  publicKey: Type.String(),
  name: Type.String(),
  color: Type.String(),
  greeting: Type.String(),
  allowedOrigins: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  snippet: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type WidgetSettings = Static<typeof WidgetSettings>;

export const WidgetKeyParams = Type.Object({
  key: Type.String({ pattern: WIDGET_KEY, messages: { type: 'Chat web no encontrado', pattern: 'Chat web no encontrado' } }),
});
export type WidgetKeyParams = Static<typeof WidgetKeyParams>;

/** What the widget shows before anyone writes. */
export const WidgetPublicConfig = Type.Object({ name: Type.String(), color: Type.String(), greeting: Type.String() });
export type WidgetPublicConfig = Static<typeof WidgetPublicConfig>;

/**
 * A visitor's signed id: the widget keeps `token` (in the page's storage) and sends it with every call; the
 * server signed it, so a visitor cannot read or write as another.
 */
export const WidgetVisitor = Type.Object({ visitorId: Type.String({ format: 'uuid' }), token: Type.String() });
export type WidgetVisitor = Static<typeof WidgetVisitor>;

const VisitorToken = Type.String({ minLength: 1, maxLength: 200, messages: { type: 'Visitante inválido', minLength: 'Visitante inválido', maxLength: 'Visitante inválido' } });

export const WidgetTokenQuery = Type.Object({ token: VisitorToken });
export type WidgetTokenQuery = Static<typeof WidgetTokenQuery>;

export const WidgetMessageBody = Type.Object(
  {
    token: VisitorToken,
    text: Type.String({
      minLength: 1,
      maxLength: WIDGET_TEXT_MAX,
      pattern: '\\S',
      messages: { type: 'Escribe un mensaje', minLength: 'Escribe un mensaje', pattern: 'Escribe un mensaje', maxLength: `El mensaje admite como máximo ${WIDGET_TEXT_MAX} caracteres` },
    }),
  },
  { additionalProperties: false },
);
export type WidgetMessageBody = Static<typeof WidgetMessageBody>;

/** A line of the visitor's thread as the visitor sees it: theirs, or the business's (a member or the assistant). */
export const WidgetMessage = Type.Object({
  id: Type.String({ format: 'uuid' }),
  from: Type.Union([Type.Literal('visitor'), Type.Literal('business')]),
  text: Type.String(),
  at: DateTime,
});
export type WidgetMessage = Static<typeof WidgetMessage>;

export const WidgetThread = Type.Object({ messages: Type.Array(WidgetMessage) });
export type WidgetThread = Static<typeof WidgetThread>;

const ProfileField = (message: string) =>
  Type.String({ maxLength: WIDGET_PROFILE_FIELD_MAX, pattern: NO_NUL, messages: { type: message, maxLength: message, pattern: message } });

/** What a visitor may leave so the business can reach them: it links their conversation to a contact (or creates one). */
export const WidgetProfileBody = Type.Object(
  {
    token: VisitorToken,
    name: Type.Optional(ProfileField('Nombre inválido')),
    email: Type.Optional(Type.String({ maxLength: WIDGET_PROFILE_FIELD_MAX, format: 'email', messages: { type: 'Correo inválido', maxLength: 'Correo inválido', format: 'Correo inválido' } })),
    phone: Type.Optional(Type.String({ maxLength: 30, pattern: '^\\+?[0-9 ()-]{6,30}$', messages: { type: 'Teléfono inválido', maxLength: 'Teléfono inválido', pattern: 'Teléfono inválido' } })),
  },
  { additionalProperties: false },
);
export type WidgetProfileBody = Static<typeof WidgetProfileBody>;

export const WidgetProfile = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  /** Whether the team sees a contact on the conversation now. */
  contactLinked: Type.Boolean(),
});
export type WidgetProfile = Static<typeof WidgetProfile>;
