import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { validationMessage, type ValidationIssue } from './validation-messages.js';

/** An error whose status, code and Spanish message are meant for the client. */
export class AppError extends Error {
  /** Extra response headers (e.g. `retry-after` on a 503 or 429). */
  headers?: Record<string, string>;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Recurso no encontrado') => new AppError(404, 'NOT_FOUND', message);
export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
export const unauthorized = (message = 'Sesión inválida o expirada', code = 'UNAUTHORIZED') =>
  new AppError(401, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);

export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** A request target with no single meaning: a malformed escape (Fastify's own check) or one the path normalisation refuses. */
export const BAD_URL_MESSAGE = 'La dirección de la petición no es válida';
export const badUrl = () => new AppError(400, 'BAD_URL', BAD_URL_MESSAGE);

/** Fastify's own client errors, in the words a Spanish-speaking user reads. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'El cuerpo de la petición no es un JSON válido'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'El cuerpo de la petición está vacío'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'BODY_TOO_LARGE', 'El cuerpo de la petición es demasiado grande'],
  FST_ERR_BAD_URL: [400, 'BAD_URL', BAD_URL_MESSAGE],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'BAD_REQUEST', 'Petición inválida'],
  FST_ERR_CTP_INVALID_TYPE: [400, 'BAD_REQUEST', 'El tipo de contenido de la petición no es válido'],
  FST_ERR_CTP_INVALID_HEADER: [400, 'BAD_REQUEST', 'El tipo de contenido de la petición no es válido'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Tipo de contenido no soportado'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST', 'Longitud de contenido inválida'],
  FST_ERR_RATE_LIMIT_EXCEEDED: [429, 'RATE_LIMITED', 'Demasiados intentos. Espera un momento y vuelve a intentarlo'],
};

/** The database did not answer in time, refused, or dropped the connection: the client may retry. */
export const DATABASE_UNAVAILABLE: [number, string, string] = [
  503,
  'DATABASE_UNAVAILABLE',
  'El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos',
];

/** postgres.js connection failures and PostgreSQL's "try again" classes (08 connection, 53 resources, 57 operator intervention). */
const TRANSIENT_DB_CODES = new Set(['CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (typeof code !== 'string') return false;
  if (TRANSIENT_DB_CODES.has(code)) return true;
  return name === 'PostgresError' && /^(08|53|57)/.test(code);
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body = toErrorBody(error);
  if (error instanceof AppError && error.headers) void reply.headers(error.headers);
  if (body.statusCode >= 500 && !(error instanceof AppError)) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: body.code, statusCode: body.statusCode }, body.message);
  void reply.code(body.statusCode).send(body);
}

function toErrorBody(error: FastifyError): ErrorBody {
  if (error instanceof AppError) return errorBody(error.statusCode, error.code, error.message);
  if (error.validation) {
    return errorBody(400, 'VALIDATION_ERROR', validationMessage(error.validation as ValidationIssue[], error.validationContext));
  }
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (known) return errorBody(...known);
  if (isDatabaseUnavailable(error)) return errorBody(...DATABASE_UNAVAILABLE);
  if (error.statusCode === 429) return errorBody(...FRAMEWORK_ERRORS.FST_ERR_RATE_LIMIT_EXCEEDED!);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return errorBody(status, error.code ?? 'BAD_REQUEST', 'Petición inválida');
  return errorBody(500, 'INTERNAL', 'Error interno del servidor');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send(errorBody(404, 'NOT_FOUND', `Ruta no encontrada: ${request.method} ${request.url.split('?')[0]}`));
}

/** Errors Fastify meets before routing (a malformed URL): same shape as any other. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  errorHandler(error, request, reply);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'Las cabeceras de la petición son demasiado grandes'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'La petición tardó demasiado en llegar'],
};

/**
 * Node's HTTP parser refused the request before Fastify saw it (headers too
 * large, a malformed request line): answer in the house shape and close.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [statusCode, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'BAD_REQUEST', 'La petición está mal formada'];
  const body = JSON.stringify(errorBody(statusCode, code, message));
  socket.end(
    [
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'x-content-type-options: nosniff',
      'referrer-policy: no-referrer',
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
