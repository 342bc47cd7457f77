import { AppError } from '@asistente/kit';

export type ProviderErrorKind =
  /** The calendar or event does not exist (or this account cannot see it). */
  | 'not_found'
  /** The sync token expired: list everything again. */
  | 'sync_expired'
  /** The user withdrew the grant (or it expired): only a new connection helps. */
  | 'revoked'
  /** The account may not do this (a read-only calendar). */
  | 'forbidden'
  /** Still rate limited after the retries. */
  | 'rate_limited'
  /** The provider refused the request as malformed. */
  | 'invalid'
  /** Timeouts, network failures and 5xx answers. */
  | 'unavailable';

/** A failure of a mirrored provider's account (Google's), in the kinds the domain handles. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const RECONNECT_MESSAGE = 'Vuelve a conectar Google';
// The owner cannot set the server's variables: they are named for the administrator (the screen folds them, the log says them).
export const NOT_CONFIGURED_MESSAGE = 'Google Calendar no está configurado en este servidor. Pide al administrador que configure la conexión con Google Calendar.';

export const notConfigured = () => new AppError(503, 'GOOGLE_NOT_CONFIGURED', NOT_CONFIGURED_MESSAGE);
export const notConnected = () => new AppError(409, 'GOOGLE_NOT_CONNECTED', 'Conecta Google Calendar para ver y crear eventos');
export const reconnect = () => new AppError(409, 'GOOGLE_RECONNECT', RECONNECT_MESSAGE);
export const calendarNotFound = () => new AppError(404, 'CALENDAR_NOT_FOUND', 'Calendario no encontrado');
export const eventNotFound = () => new AppError(404, 'EVENT_NOT_FOUND', 'Evento no encontrado');

/**
 * A provider failure in the words the user reads; never a 500. `notFound` says what a 404 means where it
 * happened (a calendar, an event). A revoked grant is handled by the caller before this (it also marks the account).
 */
export function toAppError(error: unknown, notFound: () => AppError = eventNotFound): unknown {
  if (!(error instanceof ProviderError)) return error;
  switch (error.kind) {
    case 'not_found':
      return notFound();
    case 'revoked':
      return reconnect();
    case 'forbidden':
      return new AppError(403, 'GOOGLE_FORBIDDEN', 'Google no permite modificar este calendario con tu cuenta');
    case 'rate_limited':
      return new AppError(429, 'GOOGLE_RATE_LIMITED', 'Google está limitando las peticiones. Inténtalo de nuevo en un minuto');
    case 'invalid':
      return new AppError(400, 'GOOGLE_REJECTED', 'Google rechazó los datos del evento');
    default:
      return new AppError(502, 'GOOGLE_UNAVAILABLE', 'Google Calendar no responde. Inténtalo de nuevo en unos minutos');
  }
}
