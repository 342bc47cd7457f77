import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
export const RETRY_BODY_LIMIT = 1024 * 1024;

export function mayRetry(method: string, error: { code?: string; cause?: { code?: string } }): boolean {
  const code = error.cause?.code ?? error.code ?? '';
  return NEVER_SENT.has(code) || (REPEATABLE.has(method) && CONNECTION_LOST.has(code));
}

type ReplyOptions = Parameters<FastifyReply['from']>[1] & {
  onError?: (reply: FastifyReply, context: { error: Error }) => void;
};

async function bufferedBody(request: FastifyRequest): Promise<Buffer | undefined> {
  const body = request.body;
  const length = Number(request.headers['content-length'] ?? NaN);
  if (!(body instanceof Readable) || !(length <= RETRY_BODY_LIMIT)) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An http-proxy handler over several replicas: each request goes to the
 * next replica in turn and, when that one fails in a way that surely did not
 * apply the request (refused connection) or the request only reads, to
 * the next one, each replica tried once. So a replica killed or restarting
 * loses no request the others could serve.
 */
export function replicaRetryHandler(upstreams: string[]) {
  let next = 0;
  return async (request: FastifyRequest, reply: FastifyReply, dest: string, options: ReplyOptions): Promise<FastifyReply> => {
    const body = await bufferedBody(request);
    const start = next++ % upstreams.length;
    const send = (attempt: number): void => {
      if (body) request.body = Readable.from([body]);
      const upstream = upstreams[(start + attempt) % upstreams.length]!;
      void reply.from(dest, {
        ...options,
        getUpstream: () => upstream,
        onError: (failed, { error }) => {
          const again = attempt + 1 < upstreams.length && !failed.sent && mayRetry(request.method, error as Parameters<typeof mayRetry>[1]);
          const unbufferedBody = request.body !== undefined && !body;
          if (again && !unbufferedBody) {
            request.log.warn({ upstream, code: (error as { cause?: { code?: string } }).cause?.code }, 'replica failed; trying the next one');
            send(attempt + 1);
            return;
          }
          options.onError?.(failed, { error });
        },
      });
    };
    send(0);
    // Returning the reply tells Fastify the answer is sent by reply.from, later.
    return reply;
  };
}
