import { SERVICE_PORTS, type ServiceName } from '@asistente/contracts';
import { serviceUrlVariable, type ServicePlugin, type SettingsDefinition } from '@asistente/kit';

/**
 * The gateway's routing table: one entry per service. Adding a service is
 * one entry here (and its plugin import for the embedded topology).
 */
export interface ServiceRoute {
  name: ServiceName;
  /** Path prefixes the service owns, below /api. */
  prefixes: string[];
  /** The variable holding its URL in the distributed topology (`<NAME>_URL`). */
  urlVariable: string;
  /** Its default port as a process of its own (scripts/start-distributed.js, deploy/). */
  port: number;
  /**
   * Reachable without a token: [method, path below /api]. A `*` segment matches any one segment and a
   * final `**` the rest of the path (OAuth callbacks per provider, signed tracking links).
   */
  publicRoutes: [string, string][];
  /** Its entry point: the plugin, and the settings it reads (checked at boot when it runs here). */
  load: () => Promise<{ default: ServicePlugin; settings?: SettingsDefinition }>;
}

/** What an entry writes; its URL variable and port follow from its name. */
type RouteEntry = Omit<ServiceRoute, 'urlVariable' | 'port'>;

const ENTRIES: RouteEntry[] = [
  {
    name: 'auth',
    prefixes: ['/auth', '/account', '/workspace'],
    publicRoutes: [
      ['POST', '/auth/login'],
      ['POST', '/auth/register'],
      ['GET', '/auth/password/reset-available'],
      ['POST', '/auth/password/forgot'],
      ['POST', '/auth/password/reset'],
      // An invitation's link is its key: the page shows it and a new person accepts it before any session.
      ['GET', '/auth/invitations/*'],
      ['POST', '/auth/invitations/accept'],
      // A deletion's progress: its id is the key (the account's sessions end with it).
      ['GET', '/account/delete/*'],
    ],
    load: () => import('@asistente/auth'),
  },
  {
    name: 'contacts',
    prefixes: ['/contacts'],
    publicRoutes: [],
    load: () => import('@asistente/contacts'),
  },
  {
    name: 'calendar',
    prefixes: ['/google', '/events', '/caldav', '/meetings'],
    publicRoutes: [['GET', '/google/callback'], ['POST', '/google/notifications']],
    load: () => import('@asistente/calendar'),
  },
  {
    name: 'whatsapp',
    prefixes: ['/whatsapp'],
    // The Cloud API's webhook: Meta's handshake (the verify token) and its signed POSTs (the app secret).
    publicRoutes: [
      ['GET', '/whatsapp/cloud/webhook'],
      ['POST', '/whatsapp/cloud/webhook'],
    ],
    load: () => import('@asistente/whatsapp'),
  },
  {
    name: 'email',
    prefixes: ['/emails'],
    publicRoutes: [
      ['GET', '/emails/integrations/*/callback'],
      ['GET', '/emails/track/**'],
    ],
    load: () => import('@asistente/email'),
  },
  {
    name: 'teams',
    prefixes: ['/teams', '/microsoft', '/msteams'],
    publicRoutes: [
      ['GET', '/teams/callback'],
      ['GET', '/microsoft/callback'],
    ],
    load: () => import('@asistente/teams'),
  },
  {
    name: 'ai',
    prefixes: ['/ai', '/mcp'],
    publicRoutes: [],
    load: () => import('@asistente/ai'),
  },
  {
    name: 'analytics',
    prefixes: ['/analytics'],
    publicRoutes: [],
    load: () => import('@asistente/analytics'),
  },
  {
    name: 'webhooks',
    prefixes: ['/webhooks'],
    publicRoutes: [],
    load: () => import('@asistente/webhooks'),
  },
  {
    name: 'inbox',
    prefixes: ['/conversations', '/widget'],
    // The website chat's widget: its key names the widget, the visitor's signed id goes in the body or the query.
    publicRoutes: [
      ['GET', '/widget/*/config'],
      ['POST', '/widget/*/visitors'],
      ['GET', '/widget/*/messages'],
      ['POST', '/widget/*/messages'],
      ['POST', '/widget/*/profile'],
      ['GET', '/widget/*/stream'],
    ],
    load: () => import('@asistente/inbox'),
  },
];

export const ROUTES: ServiceRoute[] = ENTRIES.map((entry) => ({ ...entry, urlVariable: serviceUrlVariable(entry.name), port: SERVICE_PORTS[entry.name] }));

/** The settings the services declare, for a process that runs them all (checked before it opens anything). */
export async function embeddedSettings(): Promise<SettingsDefinition[]> {
  const entries = await Promise.all(ROUTES.map((route) => route.load()));
  return entries.flatMap((entry) => (entry.settings ? [entry.settings] : []));
}

export const API_PREFIX = '/api';

/** The entry owning `path` (already stripped of /api and the query), if any. */
export function routeFor(path: string): ServiceRoute | undefined {
  return ROUTES.find((r) => r.prefixes.some((p) => path === p || path.startsWith(`${p}/`)));
}

export function isPublic(route: ServiceRoute, method: string, path: string): boolean {
  return route.publicRoutes.some(([m, pattern]) => m === method && matches(pattern, path));
}

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  for (const [i, segment] of want.entries()) {
    if (segment === '**') return got.length > i && got.slice(i).every(Boolean);
    if (got[i] === undefined || (segment === '*' ? got[i] === '' : segment !== got[i])) return false;
  }
  return got.length === want.length;
}
