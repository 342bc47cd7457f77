import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import {
  authPlugin,
  CLIENT_ADDRESS_HEADER,
  createHttpApp,
  currentTraceparent,
  healthRoutes,
  TOKEN_CHECKED_HEADER,
  tracingOn,
  trustProxySetting,
  type App,
  type Platform,
  type SettingsOf,
} from '@asistente/kit';
import { BUILT_DOCUMENT, registerApiReference, type ReferenceSource } from './api-reference/api-reference.js';
import { installAuthGate } from './auth-gate.js';
import { API_PREFIX, ROUTES } from './routing-table.js';
import { serveWeb } from './static-web.js';
import { ReplicaReadiness } from './replica-readiness.js';
import { settings, upstreams as upstreamUrls } from './settings.js';
import { parseUpstreams } from './upstreams.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export type Topology = 'embedded' | 'distributed';

export interface GatewayOptions {
  /** The API reference's document: collected from the services in-process (embedded) or the built file (distributed). */
  apiReference?: ReferenceSource;
}

/** Distributed when any service URL is configured; otherwise every service runs in this process. */
export function topologyOf(urls: SettingsOf<typeof upstreamUrls>): Topology {
  return ROUTES.some((r) => urls[r.urlVariable]) ? 'distributed' : 'embedded';
}

/**
 * The edge app: CORS, rate limits, token gate, routing (in-process plugins
 * or HTTP proxy per the routing table), health, and the SPA.
 */
export async function buildGateway(platform: Platform, topology: Topology = topologyOf(platform.settings(upstreamUrls)), options: GatewayOptions = {}): Promise<App> {
  const { config } = platform;
  const own = platform.settings(settings);
  const urls = platform.settings(upstreamUrls);
  const app = createHttpApp({
    log: platform.log,
    bodyLimit: config.BODY_LIMIT_BYTES,
    ownNotFoundHandler: true,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    streams: platform.streams,
    metrics: platform.metrics,
  });
  const origins = config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean);
  await app.register(cors, { origin: origins.length > 0 ? origins : false, exposedHeaders: ['x-request-id', 'content-disposition'] });
  await app.register(rateLimit, { global: false });
  // The edge faces clients: it never takes a proof of a check, it makes them for the services behind.
  // Distributed, its routes only proxy: no handler here writes for a member, the services behind do.
  await app.register(authPlugin, {
    tokens: platform.tokens,
    revocations: platform.revocations,
    acceptTokenCheckedProof: false,
    handlersActAsMember: topology === 'embedded',
  });
  // Before any route: embedded, @fastify/swagger collects the routes (and schemas) as they register.
  await registerApiReference(app, options.apiReference ?? (topology === 'embedded' ? { collect: true } : { file: BUILT_DOCUMENT }));
  installAuthGate(app, {
    loginPerIp: own.RATE_LIMIT_LOGIN_MAX * 5,
    registerPerIp: own.RATE_LIMIT_REGISTER_MAX,
    passwordResetPerIp: own.RATE_LIMIT_PASSWORD_RESET_MAX * 5,
    passwordResetWindowMs: own.RATE_LIMIT_PASSWORD_RESET_WINDOW_MS,
    windowMs: own.RATE_LIMIT_WINDOW_MS,
    personalTokenPerMinute: config.RATE_LIMIT_TOKEN_MAX,
  }, platform);
  // Distributed, the gateway is ready when every service behind it is: /ready names the ones missing.
  const readiness = new ReplicaReadiness();
  const probes =
    topology === 'distributed'
      ? Object.fromEntries(
          ROUTES.map((route) => {
            const replicas = parseUpstreams(urls[route.urlVariable] ?? '');
            return [route.name, () => readiness.anyReady(replicas)];
          }),
        )
      : undefined;
  await app.register(healthRoutes, { sql: platform.db.sql, bus: platform.bus, name: `gateway (${topology})`, probes });

  // A client's own token-checked header is dropped; the gateway's proof replaces it once the token passed.
  // Behind the gateway a service sees the gateway's address: it is told the client's, signed.
  const hopHeaders = (request: FastifyRequest, headers: IncomingHttpHeaders) => {
    const proof = app.tokenCheckedProof(request);
    if (proof) headers[TOKEN_CHECKED_HEADER] = proof;
    else delete headers[TOKEN_CHECKED_HEADER];
    headers[CLIENT_ADDRESS_HEADER] = app.clientAddressProof(request);
    headers['x-request-id'] = String(request.id);
    // Tracing on: the service's span continues the gateway's (whose parent is the client's traceparent, if any).
    if (tracingOn()) {
      delete headers.tracestate;
      headers.traceparent = currentTraceparent();
    }
  };
  for (const route of ROUTES) {
    if (topology === 'embedded') {
      const { default: plugin } = await route.load();
      await app.register(plugin, { prefix: API_PREFIX, platform });
      continue;
    }
    const upstreams = parseUpstreams(urls[route.urlVariable] ?? '');
    if (upstreams.length === 0) throw new Error(`${route.urlVariable} is required in the distributed topology`);
    // Only a gateway in front of remote services proxies: the embedded one never loads undici (~8 MB resident).
    const { upstreamProxy } = await import('./upstream-proxy.js');
    await app.register(upstreamProxy, { service: route.name, prefixes: route.prefixes, upstreams, addHeaders: hopHeaders });
  }

  // Embedded, a service asking a sibling (the assistant's tools, contact sync) is answered in-process.
  if (topology === 'embedded') platform.services.attachInProcess((request) => app.inject(request));
  await serveWeb(app, own.WEB_DIST ?? DEFAULT_WEB_DIST);
  return app;
}
