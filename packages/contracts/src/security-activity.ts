import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';

/** A union of string literals whose static type is the union of the values (a plain `.map` would lose it). */
function literals<T extends string>(values: readonly T[]): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

/**
 * What the security activity log records. Adding a kind (a personal token, an export) is one line here, one
 * Spanish label in the web, and the producing service writing `security.activity.recorded` with it.
 */
export const SECURITY_ACTIVITY_TYPES = [
  'login.succeeded',
  'login.failed',
  'logout',
  'password.changed',
  'password.reset',
  'provider.connected',
  'provider.disconnected',
  'openai_key.saved',
  'openai_key.removed',
] as const;
export type SecurityActivityType = (typeof SECURITY_ACTIVITY_TYPES)[number];

/** The providers an owner connects; `detail.provider` of a provider.connected / provider.disconnected row. */
export const SECURITY_PROVIDERS = ['google', 'microsoft', 'email', 'whatsapp'] as const;
export type SecurityProvider = (typeof SECURITY_PROVIDERS)[number];

export const SECURITY_IP_MAX = 100;
export const SECURITY_USER_AGENT_MAX = 500;

/** At most a provider's name and the account's address (a mailbox, a phone): never a password, token or key. */
export const SecurityActivityDetail = Type.Object(
  {
    provider: Type.Optional(literals(SECURITY_PROVIDERS)),
    account: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: false },
);
export type SecurityActivityDetail = Static<typeof SecurityActivityDetail>;

/** The data of a `security.activity.recorded` event: who acted from where, and on what. */
export const SecurityActivityEventData = Type.Object({
  activity: literals(SECURITY_ACTIVITY_TYPES),
  ip: Type.Union([Type.String({ maxLength: SECURITY_IP_MAX }), Type.Null()]),
  userAgent: Type.Union([Type.String({ maxLength: SECURITY_USER_AGENT_MAX }), Type.Null()]),
  detail: SecurityActivityDetail,
});
export type SecurityActivityEventData = Static<typeof SecurityActivityEventData>;

/** The client of a request as the log keeps it: the address and the User-Agent, cut to the stored sizes. */
export function securityClient(request: { ip?: string; headers: Record<string, unknown> }): Pick<SecurityActivityEventData, 'ip' | 'userAgent'> {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip ? request.ip.slice(0, SECURITY_IP_MAX) : null,
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
  type: literals(SECURITY_ACTIVITY_TYPES),
  at: Type.String({ format: 'date-time' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  detail: SecurityActivityDetail,
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
