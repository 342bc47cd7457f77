import ky, { HTTPError, type KyResponse, type Options } from 'ky';
import { reportServerReached, reportServerUnreachable } from './connection';
import { ApiError, apiErrorFromBody } from './errors';
import { clearSession, getToken } from './session-state';
import { toast } from './toasts';

export interface CallOptions {
  searchParams?: Record<string, string | number>;
  /** For calls whose 401 means "wrong password", not "session over". */
  keepSessionOn401?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The request outlives the page (a goodbye sent as the tab closes). */
  keepalive?: boolean;
  /** Milliseconds before giving up, for a call the server itself bounds beyond ky's 10 s (an assistant's draft). */
  timeout?: number;
}

/** The 401 rule: any call the server refuses as unauthenticated ends the session. */
export function onUnauthorized(url: string): void {
  console.warn('401 de la API:', url);
  if (!getToken()) return;
  clearSession();
  toast.error('Tu sesión ha expirado. Inicia sesión de nuevo.');
}

const client = ky.create({
  prefixUrl: '/api',
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = getToken();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
    afterResponse: [
      (request, options, response) => {
        if (response.status === 401 && !options.context.keepSessionOn401) onUnauthorized(request.url);
      },
    ],
  },
});

async function toApiError(err: unknown): Promise<ApiError> {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPError) {
    const body: unknown = await err.response.json().catch(() => null);
    return apiErrorFromBody(err.response.status, body);
  }
  return apiErrorFromBody(0, null);
}

function kyOptions(method: string, call: CallOptions, extra: Options = {}): Options {
  return {
    method,
    context: { keepSessionOn401: call.keepSessionOn401 ?? false },
    ...(call.searchParams ? { searchParams: call.searchParams } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
    ...(call.headers ? { headers: call.headers } : {}),
    ...(call.keepalive ? { keepalive: true } : {}),
    ...(call.timeout !== undefined ? { timeout: call.timeout } : {}),
    ...extra,
  };
}

/** Every call tells lib/connection whether the server answered, which drives the offline banner. */
async function send(path: string, options: Options): Promise<KyResponse> {
  try {
    const response = await client(path, options);
    reportServerReached();
    return response;
  } catch (err) {
    const aborted = options.signal?.aborted === true || (err instanceof Error && err.name === 'AbortError');
    if (err instanceof HTTPError) reportServerReached();
    else if (!aborted) reportServerUnreachable();
    throw await toApiError(err);
  }
}

export async function getJson<T>(path: string, call: CallOptions = {}): Promise<T> {
  return (await send(path, kyOptions('get', call))).json<T>();
}

/** For endpoints that later issues add: a 404 means "not available yet" and answers null. */
export async function getJsonIfAvailable<T>(path: string, call: CallOptions = {}): Promise<T | null> {
  try {
    return await getJson<T>(path, call);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export async function sendJson<T>(method: 'post' | 'put' | 'patch', path: string, body: unknown, call: CallOptions = {}): Promise<T> {
  return (await send(path, kyOptions(method, call, { json: body }))).json<T>();
}

export async function sendDelete(path: string): Promise<void> {
  await send(path, kyOptions('delete', {}));
}

export interface FileDownload {
  blob: Blob;
  filename: string | null;
}

export async function getFile(path: string, searchParams?: Record<string, string>): Promise<FileDownload> {
  return toDownload(await send(path, kyOptions('get', searchParams ? { searchParams } : {})));
}

/** A file answered to a POST (an export of a selection too large for a query string). */
export async function postFile(path: string, body: unknown): Promise<FileDownload> {
  return toDownload(await send(path, kyOptions('post', {}, { json: body })));
}

async function toDownload(response: KyResponse): Promise<FileDownload> {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}
