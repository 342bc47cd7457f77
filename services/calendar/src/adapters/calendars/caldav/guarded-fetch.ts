import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { traceClientCall, withoutClientSpans, type CallObserver, type HostGuard } from '@asistente/kit';

/** Followed for ordinary requests; discovery asks for `redirect: 'manual'` and reads the Location itself. */
const MAX_REDIRECTS = 5;

/** What identifies the user to a server: never sent on to another origin by a redirect (as the Fetch standard does). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** Why a request to a user's server was not sent: the adapter turns these into Spanish messages. */
export class UnsafeTargetError extends Error {
  constructor(readonly reason: 'scheme' | 'plaintext') {
    super(reason === 'scheme' ? 'only http and https servers' : 'plain http is only allowed to allowed private addresses');
    this.name = 'UnsafeTargetError';
  }
}

/**
 * A `fetch` for a host the user typed (CalDAV now): every request, redirects included, resolves its host
 * once through the kit's HostGuard and connects to the address checked (so a second DNS answer cannot send
 * it to this network); plain http only to an address the operator allowed; every request has `timeoutMs`;
 * a redirect to another origin is followed without the credentials.
 * tsdav takes it as its `fetch`, so the SDK never opens a connection the guard did not check. `observe` hears
 * how each request that was sent ended (its status, or the error it failed with), for the calls-by-outcome
 * metric; a request the guard refused was never sent and is not heard.
 */
export function guardedFetch(guard: HostGuard, timeoutMs: number, observe: CallObserver = () => {}): typeof fetch {
  const send = async (url: URL, init: RequestInit, hops: number): Promise<Response> => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeTargetError('scheme');
    const target = await guard.check(url.hostname);
    if (url.protocol === 'http:' && !target.plaintextAllowed) throw new UnsafeTargetError('plaintext');
    const family = target.address.includes(':') ? 6 : 4;
    const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options.all) callback(null, [{ address: target.address, family }]);
      else callback(null, target.address, family);
    }) as unknown as LookupFunction;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? init.body : init.body == null ? undefined : String(init.body);
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    // Its own client span (host and method): the generic one would record the path, which holds the
    // user's name on most CalDAV servers (/dav/calendars/<user>/…).
    const answer = await traceClientCall(`caldav ${method}`, { 'server.address': url.hostname, 'http.request.method': method }, () =>
      withoutClientSpans(() => exchange(url, method, headers, body, lookup, signal, target.servername)),
    ).catch((error: unknown) => {
      observe(error);
      throw error;
    });
    const status = answer.res.statusCode ?? 502;
    observe(status);
    const location = answer.res.headers.location;
    if (init.redirect !== 'manual' && [301, 302, 303, 307, 308].includes(status) && location && hops < MAX_REDIRECTS) {
      const next = new URL(location, url);
      const keep = status === 307 || status === 308 || (status !== 303 && method !== 'POST');
      const followed = keep ? init : { ...init, method: 'GET', body: null };
      // The app password was given to the origin the user typed; a redirect elsewhere (another host, port
      // or scheme) gets the request without it, and once dropped it stays dropped for later hops.
      return send(next, next.origin === url.origin ? followed : withoutCredentials(followed), hops + 1);
    }
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.res.headers)) {
      if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
      else if (value !== undefined) responseHeaders.set(name, value);
    }
    const empty = status === 204 || status === 205 || status === 304 || method === 'HEAD';
    return new Response(empty ? null : answer.data, { status, statusText: answer.res.statusMessage ?? '', headers: responseHeaders });
  };
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    send(new URL(typeof input === 'string' || input instanceof URL ? input : input.url), init, 0)) as typeof fetch;
}

function withoutCredentials(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return { ...init, headers };
}

/** One request and its whole answer, to the address the guard checked (`lookup` answers nothing else). */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  lookup: LookupFunction,
  signal: AbortSignal,
  servername: string | undefined,
): Promise<{ res: IncomingMessage; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method, headers, lookup, signal, ...(servername ? { servername } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ res, data: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
