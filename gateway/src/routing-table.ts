import { SERVICE_PORTS, type Config, type ServicePlugin } from '@asistente/kit';

/**
 * The gateway's routing table: one entry per service. Adding a service is
 * one entry here (and its plugin import for the embedded topology).
 */
export interface ServiceRoute {
  name: string;
  /** Path prefixes the service owns, below /api. */
  prefixes: string[];
  /** The variable holding its URL in the distributed topology. */
  urlVariable: keyof Config & `${string}_URL`;
  /** Its default port as a process of its own (scripts/start-distributed.js, deploy/). */
  port: number;
  /** Reachable without a token: [method, path below /api]. */
  publicRoutes: [string, string][];
  load: () => Promise<{ default: ServicePlugin }>;
}

export const ROUTES: ServiceRoute[] = [
  {
    name: 'auth',
    prefixes: ['/auth'],
    urlVariable: 'AUTH_URL',
    port: SERVICE_PORTS.auth,
    publicRoutes: [
      ['POST', '/auth/login'],
      ['POST', '/auth/register'],
    ],
    load: () => import('@asistente/auth'),
  },
  {
    name: 'contacts',
    prefixes: ['/contacts'],
    urlVariable: 'CONTACTS_URL',
    port: SERVICE_PORTS.contacts,
    publicRoutes: [],
    load: () => import('@asistente/contacts'),
  },
  {
    name: 'ai',
    prefixes: ['/ai'],
    urlVariable: 'AI_URL',
    port: SERVICE_PORTS.ai,
    publicRoutes: [],
    load: () => import('@asistente/ai'),
  },
  {
    name: 'analytics',
    prefixes: ['/analytics'],
    urlVariable: 'ANALYTICS_URL',
    port: SERVICE_PORTS.analytics,
    publicRoutes: [],
    load: () => import('@asistente/analytics'),
  },
];

export const API_PREFIX = '/api';

/** The entry owning `path` (already stripped of /api and the query), if any. */
export function routeFor(path: string): ServiceRoute | undefined {
  return ROUTES.find((r) => r.prefixes.some((p) => path === p || path.startsWith(`${p}/`)));
}

export function isPublic(route: ServiceRoute, method: string, path: string): boolean {
  return route.publicRoutes.some(([m, p]) => m === method && p === path);
}
