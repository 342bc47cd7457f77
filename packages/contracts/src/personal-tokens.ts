import { Type, type Static } from '@sinclair/typebox';

/**
 * What a personal access token may reach: an area and an access. A session (the web app, the CLI logged
 * in with a password) carries no scopes and reaches everything; a token reaches only what its scopes name,
 * and never the account routes (password, tokens, export, deletion).
 */
export const PersonalTokenScope = Type.Union([
  Type.Literal('contacts:read'),
  Type.Literal('contacts:write'),
  Type.Literal('whatsapp:read'),
  Type.Literal('whatsapp:send'),
  Type.Literal('conversations:read'),
  Type.Literal('conversations:write'),
  Type.Literal('emails:read'),
  Type.Literal('emails:send'),
  Type.Literal('calendar:read'),
  Type.Literal('calendar:write'),
  Type.Literal('teams:read'),
  Type.Literal('analytics:read'),
]);
export type PersonalTokenScope = Static<typeof PersonalTokenScope>;
export const PERSONAL_TOKEN_SCOPES: readonly PersonalTokenScope[] = PersonalTokenScope.anyOf.map((l) => l.const);

/** Every token's text starts so: a secret scanner (and the gateway) tells it from a session token at a glance. */
export const PERSONAL_TOKEN_PREFIX = 'asis_pat_';
/** The lifetimes a token may be given, in days; none means it never expires. */
export const PERSONAL_TOKEN_LIFETIMES = [30, 90, 365] as const;
export const PERSONAL_TOKEN_NAME_MAX = 100;
/** Tokens one user may hold at once: enough for every script and client, few enough to review on one card. */
export const PERSONAL_TOKENS_PER_USER = 50;

const SCOPE_INVALID = {
  messages: {
    const: `Permiso no válido: usa ${PERSONAL_TOKEN_SCOPES.join(', ')}`,
    type: `Permiso no válido: usa ${PERSONAL_TOKEN_SCOPES.join(', ')}`,
  },
};
const LIFETIME_INVALID = {
  messages: { const: 'La caducidad debe ser de 30, 90 o 365 días, o ninguna', type: 'La caducidad debe ser de 30, 90 o 365 días, o ninguna' },
};

/** POST /auth/tokens. */
export const CreatePersonalTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: PERSONAL_TOKEN_NAME_MAX,
      messages: {
        required: 'El nombre del token es requerido',
        minLength: 'El nombre del token es requerido',
        maxLength: `El nombre del token admite como máximo ${PERSONAL_TOKEN_NAME_MAX} caracteres`,
        type: 'El nombre del token debe ser un texto',
      },
    }),
    scopes: Type.Array(Type.Union(PERSONAL_TOKEN_SCOPES.map((scope) => Type.Literal(scope, SCOPE_INVALID))), {
      minItems: 1,
      maxItems: PERSONAL_TOKEN_SCOPES.length,
      uniqueItems: true,
      messages: {
        required: 'Elige al menos un permiso',
        minItems: 'Elige al menos un permiso',
        maxItems: 'Hay permisos repetidos',
        uniqueItems: 'Hay permisos repetidos',
        type: 'Los permisos deben ser una lista',
      },
    }),
    expiresInDays: Type.Optional(
      Type.Union([...PERSONAL_TOKEN_LIFETIMES.map((days) => Type.Literal(days, LIFETIME_INVALID)), Type.Null(LIFETIME_INVALID)]),
    ),
  },
  { additionalProperties: false },
);
export type CreatePersonalTokenBody = Static<typeof CreatePersonalTokenBody>;

/** A token as its owner reviews it: never its secret, only the first characters to recognise it. */
export const PersonalToken = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  scopes: Type.Array(PersonalTokenScope),
  /** `asis_pat_` and the first characters of the secret. */
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PersonalToken = Static<typeof PersonalToken>;

/** GET /auth/tokens: newest first. */
export const PersonalTokenList = Type.Object({ data: Type.Array(PersonalToken) });
export type PersonalTokenList = Static<typeof PersonalTokenList>;

/** POST /auth/tokens → 201: the only answer that carries `token`. */
export const CreatedPersonalToken = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  scopes: Type.Array(PersonalTokenScope),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  token: Type.String(),
});
export type CreatedPersonalToken = Static<typeof CreatedPersonalToken>;
