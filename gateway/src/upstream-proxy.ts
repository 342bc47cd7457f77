import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { App } from '@asistente/kit';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { LeastBusy } from './least-busy.js';
import { requestUpstream, type UpstreamAnswer } from './upstream-answer.js';
import { API_PREFIX } from './routing-table.js';
import { upstreamFailure } from './upstreams.js';

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

/** They describe one connection (RFC 9110 §7.6.1), so they never cross the hop; `expect` was answered here. */
const REQUEST_HOP_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'host'];
const ANSWER_HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding'];

/**
 * Methods a second attempt cannot harm: the safe ones (RFC 9110 §9.2.1). PUT and DELETE are idempotent
 * for the row, not for what they announce: a repeated update emits a second event, and a repeated
 * delete answers 404 to a request that succeeded.
 */
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The replica refused the connection: nothing was sent, so any method may go to another replica. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** The connection broke around the request: only a repeatable one may be tried again. */
const CONNECTION_LOST = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);

/** Bodies up to this size are kept so a retry can send them again; larger ones (imports) stream once. */
const RETRY_BODY_LIMIT = 1024 * 1024;
/** Answers up to this size are read whole and written in one piece; larger or unsized ones (exports, live streams) stream. */
const WHOLE_ANSWER_LIMIT = 256 * 1024;

type UpstreamError = { code?: string; cause?: { code?: string } };

const codeOf = (error: UpstreamError): string => error.cause?.code ?? error.code ?? '';

function mayRetry(method: string, error: UpstreamError): boolean {
  const code = codeOf(error);
  return NEVER_SENT.has(code) || (REPEATABLE.has(method) && CONNECTION_LOST.has(code));
}

/** The replica itself failed (down, restarting, crashed mid-answer), not the request. */
function connectionFailed(error: UpstreamError): boolean {
  const code = codeOf(error);
  return NEVER_SENT.has(code) || CONNECTION_LOST.has(code);
}

export interface UpstreamProxyOptions {
  /** The service's name, in the answer when it fails and in the logs. */
  service: string;
  /** Path prefixes the service owns below /api: each is served with everything under it. */
  prefixes: string[];
  /** The service's replicas: each request goes to the least busy (`LeastBusy`). */
  upstreams: string[];
  /** What the gateway tells the service beside the client's own headers (the proofs, the request id). */
  addHeaders: (request: FastifyRequest, headers: IncomingHttpHeaders) => void;
}

/**
 * The distributed gateway's hop to one service: the client's request as it came (body unparsed, query
 * untouched) over kept-alive connections to the replicas, each request to the least busy one. When a
 * replica fails a request in a way that surely did not apply it (refused connection), or the request only
 * reads, it goes to the next replica, each tried once: a replica killed or restarting loses no request the
 * others could serve. Small answers are read whole and written in one piece; the rest stream through.
 */
export async function upstreamProxy(app: App, { service, prefixes, upstreams, addHeaders }: UpstreamProxyOptions): Promise<void> {
  const pools = upstreams.map((url) => new Pool(url));
  app.addHook('onClose', async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });
  // The body goes through as bytes: the service parses it and applies its own limits.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const replicas = new LeastBusy(pools.length);

  async function forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // Normalised before routing (createHttpApp): no dot-segment or backslash can name another service's route.
    const path = request.url.slice(API_PREFIX.length);
    const headers: IncomingHttpHeaders = { ...request.headers };
    for (const name of hopHeaders(headers)) delete headers[name];
    addHeaders(request, headers);
    // Most requests (reads) carry no body: they go on without a turn of the event loop.
    const body = request.body instanceof Readable ? await retryableBody(request.body, request, pools.length) : undefined;
    const first = replicas.pick();
    for (let attempt = 0; ; attempt++) {
      const replica = (first + attempt) % pools.length;
      const upstream = upstreams[replica]!;
      const done = replicas.begin(replica);
      try {
        const answer = await requestUpstream(pools[replica]!, { path, method: request.method as Dispatcher.HttpMethod, headers, body: body ?? null }, WHOLE_ANSWER_LIMIT);
        return relay(reply, answer);
      } catch (error) {
        const failure = error as UpstreamError;
        if (connectionFailed(failure)) replicas.rest(replica);
        if (attempt + 1 < pools.length && !(body instanceof Readable) && mayRetry(request.method, failure)) {
          request.log.warn({ upstream, code: codeOf(failure) }, 'replica failed; trying the next one');
          continue;
        }
        request.log.warn({ err: error, service }, 'upstream failed');
        const answer = upstreamFailure(failure, service);
        return reply.code(answer.statusCode).send(answer);
      } finally {
        done();
      }
    }
  }

  for (const prefix of prefixes) {
    app.route({ method: METHODS, url: `${API_PREFIX}${prefix}`, handler: forward });
    app.route({ method: METHODS, url: `${API_PREFIX}${prefix}/*`, handler: forward });
  }
}

/** The hop's own headers, and those the client's `Connection` names as hop-by-hop too. */
function hopHeaders(headers: IncomingHttpHeaders): string[] {
  const named = headers.connection ? headers.connection.split(',').map((name) => name.trim().toLowerCase()) : [];
  return named.length > 0 ? [...REQUEST_HOP_HEADERS, ...named] : REQUEST_HOP_HEADERS;
}

/**
 * The request's body, read whole when another replica may have to be sent it again (several replicas, a
 * known size under the limit); otherwise the stream itself, sent once.
 */
async function retryableBody(body: Readable, request: FastifyRequest, replicas: number): Promise<Buffer | Readable> {
  const length = Number(request.headers['content-length'] ?? NaN);
  if (replicas < 2 || !(length <= RETRY_BODY_LIMIT)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function relay(reply: FastifyReply, { statusCode, headers, body }: UpstreamAnswer): FastifyReply {
  for (const name of ANSWER_HOP_HEADERS) delete headers[name];
  // A stream: Fastify destroys it, and so ends the request upstream, when the client goes away.
  return reply.code(statusCode).headers(headers).send(body);
}
