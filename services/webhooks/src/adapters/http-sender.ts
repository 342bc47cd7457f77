import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { HostNotAllowedError, withoutClientSpans, type HostGuard } from '@asistente/kit';
import { PORT_OUT_OF_RANGE } from '../domain/endpoint-url.js';
import type { SendResult, WebhookSender } from '../domain/webhook-sender.js';

/** Standard Webhooks: a receiver should answer within seconds; past this it counts as failed and is retried. */
export const SEND_TIMEOUT_MS = 10_000;
/** A receiver's answer body is read (to free the socket) and dropped; past this the socket is cut. */
const MAX_RESPONSE_BYTES = 64 * 1024;

// Kept-alive sockets per receiver: at hundreds of events a second a handshake each would dominate.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/**
 * POSTs a delivery through the kit's host guard: the receiver's name is resolved and checked on every
 * delivery (a name that pointed outside at registration may point inside now), the connection goes to the
 * address checked, and plain http only to addresses the operator allowed (ALLOWED_PRIVATE_ADDRESSES).
 * Redirects are not followed: a 3xx is a failure, as the specification says.
 */
export class HttpSender implements WebhookSender {
  constructor(
    private readonly guard: HostGuard,
    private readonly timeoutMs = SEND_TIMEOUT_MS,
  ) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    // Node reads port 0 as "the default": a URL saved with `:0` before it was refused would reach :80 or :443.
    if (target.port === '0') return { status: null, latencyMs: elapsed(), error: PORT_OUT_OF_RANGE };
    let checked;
    try {
      checked = await this.guard.check(target.hostname);
    } catch (error) {
      const message = error instanceof HostNotAllowedError ? 'La dirección apunta a una red interna y no está permitida' : 'No se encontró el servidor';
      return { status: null, latencyMs: elapsed(), error: message };
    }
    if (target.protocol === 'http:' && !checked.plaintextAllowed) return { status: null, latencyMs: elapsed(), error: 'La URL debe usar https' };
    const lookup: LookupFunction = (_host, options, callback) => {
      const family = checked.address.includes(':') ? 6 : 4;
      if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family }]);
      else callback(null, checked.address, family);
    };
    const transport = target.protocol === 'https:' ? https : http;
    // The dispatcher's span stands for this request with the host alone: the generic HTTP client span would
    // record the URL's path, where a receiver's token often lives.
    return withoutClientSpans(() => new Promise<SendResult>((resolve) => {
      const request = transport.request(
        target,
        {
          method: 'POST',
          agent: agents[target.protocol as 'http:' | 'https:'],
          lookup,
          ...(checked.servername ? { servername: checked.servername } : {}),
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'MiAsistente-Webhooks/1' },
          signal: AbortSignal.timeout(this.timeoutMs),
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) response.destroy();
          });
          const done = () => {
            const status = response.statusCode ?? null;
            const ok = status !== null && status >= 200 && status < 300;
            resolve({ status, latencyMs: elapsed(), error: ok ? null : `El receptor respondió HTTP ${status}` });
          };
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        const timedOut = error.name === 'TimeoutError' || error.name === 'AbortError';
        resolve({
          status: null,
          latencyMs: elapsed(),
          error: timedOut ? `El receptor no respondió en ${this.timeoutMs / 1000} s` : `No se pudo conectar con el receptor (${error.code ?? 'error de red'})`,
        });
      });
      request.end(body);
    }));
  }
}
