import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { validationMessage, type ValidationIssue } from './validation-messages.js';

/** An error whose status, code and Spanish message are meant for the client. */
export class AppError extends Error {
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

/** Fastify's own client errors, in the words a Spanish-speaking user reads. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'El cuerpo de la petición no es un JSON válido'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'El cuerpo de la petición está vacío'],
  FST_ERR_CTP_BODY_TOO_LARGE: [400, 'BODY_TOO_LARGE', 'El cuerpo de la petición es demasiado grande'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Tipo de contenido no soportado'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST', 'Longitud de contenido inválida'],
  FST_ERR_RATE_LIMIT_EXCEEDED: [429, 'RATE_LIMITED', 'Demasiados intentos. Espera un momento y vuelve a intentarlo'],
};

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body = toErrorBody(error);
  if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
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
  if (error.statusCode === 429) return errorBody(...FRAMEWORK_ERRORS.FST_ERR_RATE_LIMIT_EXCEEDED!);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return errorBody(status, error.code ?? 'BAD_REQUEST', 'Petición inválida');
  return errorBody(500, 'INTERNAL', 'Error interno del servidor');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send(errorBody(404, 'NOT_FOUND', `Ruta no encontrada: ${request.method} ${request.url.split('?')[0]}`));
}
