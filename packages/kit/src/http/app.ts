import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './errors.js';
import { findInputProblem } from './input-guard.js';
import { refuseUnnormalisable, rewriteToNormalTarget } from './request-target.js';
import type { LiveStreams } from './live-streams.js';
import { installHttpMetrics } from '../observability/metrics/http-metrics.js';
import type { Metrics } from '../observability/metrics/metrics.js';
import { requestLogger } from './request-logger.js';
import { createSerializerCompiler } from './serializer.js';
import { createValidatorCompiler } from './validator.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface HttpAppOptions {
  log: Logger;
  bodyLimit: number;
  /** The gateway answers unknown non-API paths with the SPA, so it sets its own. */
  ownNotFoundHandler?: boolean;
  /**
   * Which peers may tell the client's address in `X-Forwarded-For` (see
   * `trustProxySetting`). Default: none, the socket's address is the client's,
   * so a forged header cannot sidestep per-address limits.
   */
  trustProxy?: TrustProxy;
  /** Live streams to end (with a reconnect hint) when the app closes, so close never waits on them. */
  streams?: LiveStreams;
  /** The process's metrics: when enabled (METRICS_PORT set), every answer is counted and timed by route pattern. */
  metrics?: Metrics;
}

export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** TRUST_PROXY as Fastify takes it: off when empty, the nearest N hops, or a list of addresses/CIDRs. */
export function trustProxySetting(value: string): TrustProxy {
  const text = value.trim();
  if (!text) return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address, hop) => hop < hops;
  }
  return text.split(',').map((part) => part.trim()).filter(Boolean);
}

/** Sent on every answer, API and SPA alike (a hijacked stream included: they are set on the raw response). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * The Fastify instance every process starts from (gateway or a service alone):
 * request ids taken from `x-request-id` when sane and echoed back, the
 * house validator and error shape, and a 404 in that shape.
 */
export function createHttpApp(options: HttpAppOptions): App {
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    childLoggerFactory: requestLogger,
    bodyLimit: options.bodyLimit,
    // genReqId reads the header itself so an unsafe value is replaced, not trusted.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: options.trustProxy ?? false,
    // One spelling of every path before routing: the router, the edge's rules and each service's scope
    // check all see the same path, so `%63onnect` or `connect#x` cannot get a verdict `connect` would not.
    rewriteUrl: rewriteToNormalTarget,
    return503OnClosing: true,
    // Answers Node and Fastify give before any route (header overflow, malformed request, bad URL) in our shape.
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // A service's plugin opens its database, its bus consumers and its sessions before it listens. Fastify
    // gives a plugin 10 s and then exits the process: a replica booting beside a dozen others on two cores
    // (a rollout, a node restarted) took longer and died instead of becoming ready. Readiness already says
    // when it is up; this only stops a plugin that truly hangs.
    pluginTimeout: 120_000,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', refuseUnnormalisable);
  const { streams } = options;
  if (streams) app.addHook('preClose', async () => streams.closeAll());
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSerializerCompiler(createSerializerCompiler());
  app.setErrorHandler(errorHandler);
  if (!options.ownNotFoundHandler) app.setNotFoundHandler(notFoundHandler);
  if (options.metrics?.enabled) installHttpMetrics(app, options.metrics);
  // This hook and the input check are synchronous (`done`): an async hook costs every request a promise and
  // a turn of the microtask queue, in the gateway and again in the service behind it.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of SECURITY_HEADER_ENTRIES) reply.raw.setHeader(name, value);
    void reply.header('x-request-id', request.id);
    done();
  });
  // One check for every route of every service: text the database cannot hold (NUL, control
  // characters, lone surrogates) and numbers that are not finite never reach a handler.
  app.addHook('preHandler', (request, _reply, done) => {
    done(
      findInputProblem(request.query, 'querystring') ??
        findInputProblem(request.params, 'params') ??
        findInputProblem(request.body, 'body'),
    );
  });
  return app;
}
