import {
  Client,
  HTTPMessageHandler,
  RetryHandler,
  RetryHandlerOptions,
  type Context,
  type Middleware,
} from '@microsoft/microsoft-graph-client';
import type { AccessTokens } from '../domain/microsoft-graph.js';


export interface GraphClientOptions {
  /** Graph root with its version, e.g. https://graph.microsoft.com/v1.0. */
  graphUrl: string;
  tokens: AccessTokens;
  /** Per attempt, so a stalled connection never hangs a request. */
  timeoutMs?: number;
  /** Longest Retry-After honoured by waiting; a longer one answers the throttle to the user at once. */
  maxRetryAfterSeconds?: number;
  maxRetries?: number;
  /** Told how each attempt ended (metrics): its HTTP status, or the error it failed with. */
  onCall?: (result: number | unknown) => void;
}

function setHeader(context: Context, name: string, value: string): void {
  const options = (context.options ??= {});
  const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
  headers.set(name, value);
  options.headers = Object.fromEntries(headers.entries());
}

/**
 * Adds the user's token to every attempt (the stock handler only sends it to hosts it knows, and our Graph
 * URL is configurable), bounds each attempt with a timeout, and on a 401 renews the token once and retries.
 */
class UserTokenHandler implements Middleware {
  private next: Middleware | undefined;

  constructor(
    private readonly tokens: AccessTokens,
    private readonly timeoutMs: number,
    private readonly onCall: (result: number | unknown) => void = () => {},
  ) {}

  async execute(context: Context): Promise<void> {
    if (!this.next) throw new Error('UserTokenHandler needs a next middleware');
    await this.attempt(context, await this.tokens.current());
    if (context.response?.status === 401) await this.attempt(context, await this.tokens.renew());
  }

  setNext(next: Middleware): void {
    this.next = next;
  }

  private async attempt(context: Context, token: string): Promise<void> {
    setHeader(context, 'Authorization', `Bearer ${token}`);
    (context.options ??= {}).signal = AbortSignal.timeout(this.timeoutMs);
    try {
      await this.next!.execute(context);
    } catch (error) {
      this.onCall(error);
      throw error;
    }
    this.onCall(context.response?.status);
  }
}

/**
 * The real Microsoft Graph client (3.0.7) with our middleware chain: retry (honours 429/503/504 and their
 * Retry-After) → user token → fetch. Paths are relative to `graphUrl`; absolute `@odata.nextLink`s work as is.
 */
export function createGraphClient(options: GraphClientOptions): Client {
  const url = new URL(options.graphUrl);
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 10;
  const retry = new RetryHandler(
    new RetryHandlerOptions(1, options.maxRetries ?? 2, (_delay, _attempt, _request, fetchOptions, response) => {
      // 429 and 503 mean "not processed": safe to repeat. A 504 may hide a POST that went through (a message
      // posted twice), so only reads are repeated after one.
      if (response.status === 504 && (fetchOptions?.method ?? 'GET').toUpperCase() !== 'GET') return false;
      const header = response.headers.get('Retry-After');
      const seconds = header === null ? 0 : Number(header);
      return Number.isFinite(seconds) && seconds <= maxRetryAfter;
    }),
  );
  const auth = new UserTokenHandler(options.tokens, options.timeoutMs ?? 15_000, options.onCall);
  const http = new HTTPMessageHandler();
  retry.setNext(auth);
  auth.setNext(http);
  return Client.initWithMiddleware({
    middleware: retry,
    baseUrl: url.origin,
    defaultVersion: url.pathname.replace(/^\/+|\/+$/g, ''),
  });
}
