import { fileURLToPath } from 'node:url';
import cors from '@fastify/cors';
import httpProxy from '@fastify/http-proxy';
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
} from '@asistente/kit';
import { BUILT_DOCUMENT, registerApiReference, type ReferenceSource } from './api-reference/api-reference.js';
import { installAuthGate } from './auth-gate.js';
import { API_PREFIX, ROUTES } from './routing-table.js';
import { serveWeb } from './static-web.js';
import { replicaRetryHandler } from './replica-retry.js';
import { ReplicaReadiness } from './replica-readiness.js';
import { parseUpstreams, upstreamFailure } from './upstreams.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export type Topology = 'embedded' | 'distributed';

export interface GatewayOptions {
  /** The API reference's document: collected from the services in-process (embedded) or the built file (distributed). */
  apiReference?: ReferenceSource;
}

/** Distributed when any service URL is configured; otherwise every service runs in this process. */
export function topologyOf({ config }: Pick<Platform, 'config'>): Topology {
  return ROUTES.some((r) => config[r.urlVariable]) ? 'distributed' : 'embedded';
}

/**
 * The edge app: CORS, rate limits, token gate, routing (in-process plugins
 * or HTTP proxy per the routing table), health, and the SPA.
 */
export async function buildGateway(platform: Platform, topology: Topology = topologyOf(platform), options: GatewayOptions = {}): Promise<App> {
  const { config } = platform;
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
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations, acceptTokenCheckedProof: false });
  // Before any route: embedded, @fastify/swagger collects the routes (and schemas) as they register.
  await registerApiReference(app, options.apiReference ?? (topology === 'embedded' ? { collect: true } : { file: BUILT_DOCUMENT }));
  installAuthGate(app, {
    loginPerIp: config.RATE_LIMIT_LOGIN_MAX * 5,
    registerPerIp: config.RATE_LIMIT_REGISTER_MAX,
    passwordResetPerIp: config.RATE_LIMIT_PASSWORD_RESET_MAX * 5,
    passwordResetWindowMs: config.RATE_LIMIT_PASSWORD_RESET_WINDOW_MS,
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    personalTokenPerMinute: config.RATE_LIMIT_TOKEN_MAX,
  }, platform);
  // Distributed, the gateway is ready when every service behind it is: /ready names the ones missing.
  const readiness = new ReplicaReadiness();
  const probes =
    topology === 'distributed'
      ? Object.fromEntries(
          ROUTES.map((route) => {
            const urls = parseUpstreams(config[route.urlVariable] ?? '');
            return [route.name, () => readiness.anyReady(urls)];
          }),
        )
      : undefined;
  await app.register(healthRoutes, { sql: platform.db.sql, bus: platform.bus, name: `gateway (${topology})`, probes });

  for (const route of ROUTES) {
    if (topology === 'embedded') {
      const { default: plugin } = await route.load();
      await app.register(plugin, { prefix: API_PREFIX, platform });
      continue;
    }
    const upstreams = parseUpstreams(config[route.urlVariable] ?? '');
    if (upstreams.length === 0) throw new Error(`${route.urlVariable} is required in the distributed topology`);
    // Several replicas: each request goes to the next, and to another one when a replica fails it safely.
    const handler = upstreams.length > 1 ? replicaRetryHandler(upstreams) : undefined;
    for (const prefix of route.prefixes) {
      await app.register(httpProxy, {
        // One replica: a pool to it; several: the handler names the replica of each attempt.
        upstream: upstreams.length === 1 ? upstreams[0]! : '',
        prefix: `${API_PREFIX}${prefix}`,
        rewritePrefix: prefix,
        ...(handler ? { handler } : {}),
        // Fastify already logs each request and its answer; reply-from would add two info lines per hop.
        disableRequestLogging: true,
        replyOptions: {
          // http-proxy wants a getUpstream beside an empty upstream; the handler overrides it per attempt.
          ...(handler ? { getUpstream: () => upstreams[0]! } : {}),
          // `expect: 100-continue` was answered here (Node sends the 100); undici refuses to forward it.
          // A client's own token-checked header is dropped; the gateway's proof replaces it once the token passed.
          // `headers` is reply-from's own copy of the client's, made for this request: edited in place, since
          // rebuilding it by rest and spread cost more per request than the proof's HMAC.
          rewriteRequestHeaders: (request, headers) => {
            const proof = app.tokenCheckedProof(request);
            headers.expect = undefined;
            headers[TOKEN_CHECKED_HEADER] = proof;
            // Behind the gateway a service sees the gateway's address: it is told the client's, signed.
            headers[CLIENT_ADDRESS_HEADER] = app.clientAddressProof(request);
            headers['x-request-id'] = String(request.id);
            // Tracing on: the service's span continues the gateway's (whose parent is the client's traceparent, if any).
            if (tracingOn()) {
              headers.tracestate = undefined;
              headers.traceparent = currentTraceparent();
            }
            return headers;
          },
          onError: (reply, { error }) => {
            const body = upstreamFailure(error as Parameters<typeof upstreamFailure>[0], route.name);
            reply.request.log.warn({ err: error, service: route.name }, 'upstream failed');
            void reply.code(body.statusCode).send(body);
          },
        },
      });
    }
  }

  // Embedded, a service asking a sibling (the assistant's tools, contact sync) is answered in-process.
  if (topology === 'embedded') platform.services.attachInProcess((request) => app.inject(request));
  await serveWeb(app, config.WEB_DIST ?? DEFAULT_WEB_DIST);
  return app;
}
