import { AppError } from '@asistente/kit';
import { GraphRequestError } from './microsoft-graph.js';

export const reconnectRequired = () =>
  new AppError(409, 'MICROSOFT_RECONNECT', 'La sesión de Microsoft caducó o fue revocada: vuelve a conectar tu cuenta de Microsoft.');

export const unreachable = () =>
  new AppError(502, 'MICROSOFT_UNREACHABLE', 'No se pudo conectar con Microsoft: inténtalo de nuevo en unos minutos.');

export interface FailureContext {
  /** What a 404 means where it happened, e.g. 'El canal ya no existe en Microsoft Teams.'. */
  notFound?: string;
}

/** Errors our token source raises inside the Graph middleware come back wrapped; these are told apart by message. */
const AUTH_ERRORS = [reconnectRequired, unreachable];

/**
 * A Graph failure in the words a user can act on, never a 500: 403 a permission not granted, 404 a thing
 * gone, 429 throttled (after honouring Retry-After), 401 a session to renew, network or timeout unreachable.
 */
export function graphFailure(error: unknown, context: FailureContext = {}): AppError {
  if (error instanceof AppError) return error;
  if (!(error instanceof GraphRequestError)) return unreachable();
  if (error.code === 'AppError') return AUTH_ERRORS.map((make) => make()).find((e) => e.message === error.message) ?? unreachable();
  switch (error.statusCode) {
    case 401:
      return reconnectRequired();
    case 403:
      return new AppError(
        403,
        'MICROSOFT_FORBIDDEN',
        'Microsoft 365 no permite esta acción a tu cuenta (falta un permiso o tu organización lo restringe): vuelve a conectar la cuenta aceptando los permisos o consulta a tu administrador.',
      );
    case 404:
      return new AppError(404, 'MICROSOFT_NOT_FOUND', context.notFound ?? 'El elemento ya no existe en Microsoft 365.');
    case 429:
      return new AppError(429, 'MICROSOFT_THROTTLED', 'Microsoft 365 está limitando las peticiones: espera un momento y vuelve a intentarlo.');
    case 400:
      return new AppError(400, 'MICROSOFT_BAD_REQUEST', 'Microsoft 365 rechazó la petición: revisa los datos e inténtalo de nuevo.');
    default:
      return error.statusCode >= 500
        ? new AppError(502, 'MICROSOFT_UNAVAILABLE', 'Microsoft 365 no respondió correctamente: inténtalo de nuevo en unos minutos.')
        : unreachable();
  }
}

/** Runs a Graph call and turns its failure into the user's message. */
export async function viaGraph<T>(call: () => Promise<T>, context: FailureContext = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw graphFailure(error, context);
  }
}
