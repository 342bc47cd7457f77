import { Readable } from 'node:stream';
import ky, { HTTPError, TimeoutError, type KyInstance, type SearchParamsOption } from 'ky';
import { ApiError, CliError } from './errors.js';

/** JSON calls wait this long; streamed uploads and downloads have no limit (a big import takes a while). */
const TIMEOUT_MS = 30_000;

export interface UploadOptions {
  contentType: string;
  searchParams?: Record<string, string>;
}

/**
 * The API below `<apiUrl>/api/`, with the bearer token when there is one. Every failure becomes a CliError
 * carrying the server's Spanish message, or a clear line when the server cannot be reached.
 */
export class ApiClient {
  readonly #http: KyInstance;
  readonly #base: URL;
  readonly #headers: Record<string, string>;

  constructor(
    readonly apiUrl: string,
    token?: string,
  ) {
    this.#base = new URL('api/', apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
    this.#headers = token ? { authorization: `Bearer ${token}` } : {};
    // No retries: a CLI should report a failure at once rather than repeat a write behind the user's back.
    this.#http = ky.create({ prefixUrl: this.#base.href, headers: this.#headers, retry: 0, timeout: TIMEOUT_MS });
  }

  get<T>(path: string, searchParams?: SearchParamsOption): Promise<T> {
    return this.#call(() => this.#http.get(path, { searchParams }).json<T>());
  }

  post<T>(path: string, json?: unknown): Promise<T> {
    return this.#call(() => this.#http.post(path, json === undefined ? {} : { json }).json<T>());
  }

  put<T>(path: string, json: unknown): Promise<T> {
    return this.#call(() => this.#http.put(path, { json }).json<T>());
  }

  delete<T>(path: string): Promise<T> {
    return this.#call(() => this.#http.delete(path).json<T>());
  }

  /** The response body as a stream (e.g. a CSV export), never held in memory whole. */
  download(path: string, searchParams?: SearchParamsOption): Promise<ReadableStream<Uint8Array>> {
    return this.#call(async () => {
      const response = await this.#http.get(path, { searchParams, timeout: false });
      if (response.body === null) throw new CliError('La API respondió sin contenido');
      return response.body;
    });
  }

  /**
   * Streams `body` as the request body. Plain fetch rather than ky: ky clones every request so it could retry
   * it, and cloning a streamed body tees it, so the spare copy would buffer the whole file in memory.
   */
  upload<T>(path: string, body: Readable, options: UploadOptions): Promise<T> {
    return this.#call(async () => {
      const url = new URL(path, this.#base);
      for (const [name, value] of Object.entries(options.searchParams ?? {})) url.searchParams.set(name, value);
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...this.#headers, 'content-type': options.contentType, accept: 'application/json' },
        body: Readable.toWeb(body),
        duplex: 'half',
      });
      if (!response.ok) throw await apiError(response);
      return (await response.json()) as T;
    });
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof CliError) throw error;
      if (error instanceof HTTPError) throw await apiError(error.response);
      if (error instanceof TimeoutError) throw new CliError(`La API en ${this.apiUrl} no respondió a tiempo`);
      throw new CliError(`No se pudo conectar con la API en ${this.apiUrl}: ${reason(error)}`);
    }
  }
}

/** The server's `{ statusCode, code, message }` body, or the bare status when the body is not that. */
async function apiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof body.message === 'string') {
      return new ApiError(body.message, response.status, typeof body.code === 'string' ? body.code : 'ERROR');
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): fall through to the status line.
  }
  return new ApiError(`La API respondió ${response.status} ${response.statusText}`.trim(), response.status, 'ERROR');
}

/** fetch's "fetch failed" hides the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
