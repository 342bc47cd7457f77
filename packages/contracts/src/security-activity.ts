import { Type, type Static } from '@sinclair/typebox';

/**
 * What the security activity log records. Adding a kind (`token.created`, `token.revoked`,
 * `export.requested`) is one line here, one Spanish label in the web (which does not compile without it),
 * and the producing service writing `security.activity.recorded` with it.
 */
export const SecurityActivityKind = Type.Union([
  Type.Literal('login.succeeded'),
  Type.Literal('login.failed'),
  Type.Literal('logout'),
  Type.Literal('password.changed'),
  Type.Literal('password.reset'),
  Type.Literal('provider.connected'),
  Type.Literal('provider.disconnected'),
  Type.Literal('openai_key.saved'),
  Type.Literal('openai_key.removed'),
  Type.Literal('export.requested'),
  Type.Literal('token.created'),
  Type.Literal('token.revoked'),
]);
export type SecurityActivityType = Static<typeof SecurityActivityKind>;
export const SECURITY_ACTIVITY_TYPES: readonly SecurityActivityType[] = SecurityActivityKind.anyOf.map((l) => l.const);

/** The providers an owner connects; `detail.provider` of a provider.connected / provider.disconnected row. */
export const SecurityProviderName = Type.Union([Type.Literal('google'), Type.Literal('microsoft'), Type.Literal('email'), Type.Literal('whatsapp'), Type.Literal('caldav')]);
export type SecurityProvider = Static<typeof SecurityProviderName>;

export const SECURITY_IP_MAX = 100;
export const SECURITY_USER_AGENT_MAX = 500;

/** At most a provider's name, the account's address (a mailbox, a phone) and a count: never a password, token or key. */
export const SecurityActivityDetail = Type.Object(
  {
    provider: Type.Optional(SecurityProviderName),
    account: Type.Optional(Type.String({ maxLength: 320 })),
    /** The name its owner gave a personal access token (token.created, token.revoked): never the token. */
    tokenName: Type.Optional(Type.String({ maxLength: 100 })),
    /** How many personal access tokens a new password revoked (password.changed, password.reset). */
    revokedTokens: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type SecurityActivityDetail = Static<typeof SecurityActivityDetail>;

/** The data of a `security.activity.recorded` event: who acted from where, and on what. */
export const SecurityActivityEventData = Type.Object({
  activity: SecurityActivityKind,
  ip: Type.Union([Type.String({ maxLength: SECURITY_IP_MAX }), Type.Null()]),
  userAgent: Type.Union([Type.String({ maxLength: SECURITY_USER_AGENT_MAX }), Type.Null()]),
  detail: SecurityActivityDetail,
  /** The member who acted, when a session did (the log belongs to the workspace; this says who, by name). */
  actorId: Type.Optional(Type.String({ format: 'uuid' })),
});
export type SecurityActivityEventData = Static<typeof SecurityActivityEventData>;

/**
 * The client of a request as the log keeps it: the address and the User-Agent, cut to the stored sizes, and
 * the member whose session made it (none before sign-in).
 */
export function securityClient(request: {
  ip?: string;
  clientIp?: string;
  headers: Record<string, unknown>;
  user?: { id: string } | null;
}): Pick<SecurityActivityEventData, 'ip' | 'userAgent' | 'actorId'> {
  const agent = request.headers['user-agent'];
  // `clientIp`: the client's address a service behind the gateway was told (the kit's auth plugin).
  const ip = request.clientIp ?? request.ip;
  return {
    ...(request.user?.id ? { actorId: request.user.id } : {}),
    ip: ip ? ip.slice(0, SECURITY_IP_MAX) : null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, SECURITY_USER_AGENT_MAX) : null,
  };
}

export const SECURITY_ACTIVITY_PAGE_SIZE = 20;
export const SECURITY_ACTIVITY_MAX_LIMIT = 100;
/** Rows older than this are purged. */
export const SECURITY_ACTIVITY_RETENTION_DAYS = 90;

export const SecurityActivityQuery = Type.Object(
  {
    page: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      messages: { type: 'La página debe ser un número entero mayor o igual que 1', minimum: 'La página debe ser un número entero mayor o igual que 1', maximum: 'La página es demasiado alta' },
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: SECURITY_ACTIVITY_MAX_LIMIT,
      default: SECURITY_ACTIVITY_PAGE_SIZE,
      messages: {
        type: `El límite debe ser un número entero entre 1 y ${SECURITY_ACTIVITY_MAX_LIMIT}`,
        minimum: `El límite debe ser un número entero entre 1 y ${SECURITY_ACTIVITY_MAX_LIMIT}`,
        maximum: `El límite debe ser un número entero entre 1 y ${SECURITY_ACTIVITY_MAX_LIMIT}`,
      },
    }),
  },
  { additionalProperties: false },
);
export type SecurityActivityQuery = Static<typeof SecurityActivityQuery>;

export const SecurityActivityEntry = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: SecurityActivityKind,
  at: Type.String({ format: 'date-time' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  detail: SecurityActivityDetail,
  /** Who did it: the member's name as it was then (kept when they leave), or null for what no session did (a failed sign-in). */
  actor: Type.Union([Type.Object({ userId: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()]),
});
export type SecurityActivityEntry = Static<typeof SecurityActivityEntry>;

/** GET /account/activity: the caller's rows, newest first. */
export const SecurityActivityPage = Type.Object({
  data: Type.Array(SecurityActivityEntry),
  pagination: Type.Object({ total: Type.Integer({ minimum: 0 }), page: Type.Integer({ minimum: 1 }), limit: Type.Integer({ minimum: 1 }) }),
});
export type SecurityActivityPage = Static<typeof SecurityActivityPage>;

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** A User-Agent in a few Spanish words: "Chrome en Windows", "Safari en iOS"; null when nothing is known. */
export function describeBrowser(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} en ${system}`;
  return browser ?? system ?? 'Navegador desconocido';
}
