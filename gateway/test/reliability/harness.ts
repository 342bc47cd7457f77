import type { FastifyInstance } from 'fastify';
import { authPlugin, createHttpApp, type App, type Platform } from '@asistente/kit';
import { ROUTES, routeFor } from '../../src/routing-table.js';
import type { JsonSchema } from './schema-arbitrary.js';

/** One route of one service as mounted under /api, with the schemas it validates against. */
export interface RouteInfo {
  method: string;
  url: string;
  service: string;
  public: boolean;
  params: JsonSchema | undefined;
  querystring: JsonSchema | undefined;
  body: JsonSchema | undefined;
  /** The upload media types the route's own context parses (a CSV or vCard file), beyond JSON and forms. */
  rawMediaTypes: string[];
}

/** Media types of files sent as they are: a route whose context parses one of them takes uploads. */
const RAW_MEDIA_TYPES = ['text/csv', 'text/vcard', 'text/x-vcard', 'application/octet-stream'];

/** Endpoints that never end by design (Server-Sent Events): not something an inject can wait for. */
export const isStream = (route: RouteInfo) => route.url.split('/').pop() === 'stream';

/** Unreachable on purpose: providers fail at once instead of reaching (or waiting on) the internet. */
const NOWHERE = 'http://127.0.0.1:9';
export const OFFLINE_PROVIDERS = {
  GOOGLE_AUTH_URL: NOWHERE,
  GOOGLE_TOKEN_URL: NOWHERE,
  GOOGLE_REVOKE_URL: NOWHERE,
  GOOGLE_API_URL: NOWHERE,
  MICROSOFT_LOGIN_URL: NOWHERE,
  MICROSOFT_GRAPH_URL: NOWHERE,
  OPENAI_BASE_URL: NOWHERE,
  WHATSAPP_WS_URL: 'ws://127.0.0.1:9',
};

/**
 * Every service of the gateway's routing table mounted under /api, as the
 * embedded gateway mounts them, and the list of their routes with schemas:
 * a route added to any service, present or future, is here by existing.
 */
export async function mountEverything(platform: Platform): Promise<{ app: App; routes: RouteInfo[] }> {
  const app = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
  const routes: RouteInfo[] = [];
  // The context a route was declared in: its parsers, read once every plugin has added its own.
  const contexts = new Map<RouteInfo, FastifyInstance>();
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    if (!route.url.startsWith('/api/')) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const schema = (route.schema ?? {}) as { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
    const service = routeFor(route.url.slice('/api'.length))?.name ?? 'unknown';
    for (const method of methods) {
      const info: RouteInfo = {
        method,
        url: route.url,
        service,
        public: Boolean((route.config as { public?: boolean } | undefined)?.public),
        params: schema.params,
        querystring: schema.querystring,
        body: schema.body,
        rawMediaTypes: [],
      };
      routes.push(info);
      contexts.set(info, this);
    }
  });
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  for (const route of ROUTES) {
    const { default: plugin } = await route.load();
    await app.register(plugin, { prefix: '/api', platform });
  }
  platform.services.attachInProcess((request) => app.inject(request));
  await app.ready();
  for (const [info, context] of contexts) info.rawMediaTypes = RAW_MEDIA_TYPES.filter((type) => context.hasContentTypeParser(type));
  return { app, routes };
}

/** `/api/contacts/:id/notes` with `{ id: 'x' }` → `/api/contacts/x/notes`. */
export function fillPath(url: string, params: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => encodeSegment(asText(params[name] ?? 'x')));
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the raw bytes of its code unit. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
}

/** Any value as text (objects without a prototype included). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function queryString(query: unknown): string {
  if (!query || typeof query !== 'object' || Array.isArray(query)) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, asText(item));
    else params.set(key, asText(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The house error shape, with a message in Spanish (no bare English framework text). */
export function isHouseError(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return typeof b.statusCode === 'number' && typeof b.code === 'string' && typeof b.error === 'string' && typeof b.message === 'string' && b.message.length > 0;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Waits for `promise` at most `ms`; undefined when it did not settle in time (a hang). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  const result = await Promise.race([promise, timeout]);
  clearTimeout(timer);
  return result;
}
