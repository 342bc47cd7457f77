/** An API failure carrying the server's Spanish message, ready to show to the user. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The whole answer, for a refusal that carries more than its message (e.g. a 409 with what changed meanwhile). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const FALLBACK: Record<number, string> = {
  0: 'No se pudo conectar con el servidor',
  401: 'Tu sesión ha expirado. Inicia sesión de nuevo.',
  404: 'No encontrado',
  413: 'El archivo es demasiado grande',
  429: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
};

export function fallbackMessage(status: number): string {
  return FALLBACK[status] ?? 'Ocurrió un error inesperado. Inténtalo de nuevo.';
}

interface ErrorBody {
  code?: unknown;
  message?: unknown;
}

export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const { code, message } = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  // The server framework's own failures (FST_… codes the services did not translate, such as an answer that
  // failed its response schema) speak English to developers: the person reads the Spanish fallback.
  const internal = typeof code === 'string' && code.startsWith('FST_');
  return new ApiError(
    status,
    typeof code === 'string' ? code : '',
    typeof message === 'string' && message && !internal ? message : fallbackMessage(status),
    body,
  );
}

export function errorMessage(err: unknown): string {
  return err instanceof ApiError ? err.message : fallbackMessage(0);
}
