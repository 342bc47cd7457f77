import { AppError, HostNotAllowedError } from '@asistente/kit';
import { CaldavError, CaldavRedirectError } from './session.js';
import { eventNotFound } from '../../../domain/provider-errors.js';

export const CALDAV_AUTH_MESSAGE = 'El servidor CalDAV rechazó el usuario o la contraseña de aplicación';
export const CALDAV_CONFLICT_MESSAGE = 'El evento cambió en el servidor CalDAV mientras lo editabas. Actualiza el calendario y vuelve a intentarlo';

export const caldavNotConnected = () => new AppError(409, 'CALDAV_NOT_CONNECTED', 'Conecta un calendario CalDAV para ver y crear eventos');

/** While connecting, every failure is about what the user typed: a 400 saying which part to check. */
export function connectError(error: unknown): unknown {
  if (error instanceof HostNotAllowedError || !(error instanceof CaldavError)) return error;
  if (error instanceof CaldavRedirectError) {
    // Typing the other address is the user's decision to trust it with the password; a redirect is not.
    return new AppError(400, 'CALDAV_REDIRECTED', `El servidor CalDAV redirige a otra dirección (${error.target}). Si es la de tu servidor, escríbela como dirección del servidor`);
  }
  switch (error.kind) {
    case 'auth':
      return new AppError(400, 'CALDAV_AUTH_FAILED', CALDAV_AUTH_MESSAGE);
    case 'insecure':
      return new AppError(400, 'CALDAV_INSECURE_URL', 'La dirección del servidor debe empezar por https://');
    case 'unavailable':
      return new AppError(400, 'CALDAV_UNREACHABLE', 'No se pudo conectar con el servidor CalDAV. Comprueba la dirección e inténtalo de nuevo');
    default:
      return new AppError(400, 'CALDAV_NOT_FOUND', 'No encontramos calendarios CalDAV en esa dirección. Comprueba la dirección del servidor');
  }
}

/** After connecting: a provider failure in the words the user reads; never a 500. */
export function caldavAppError(error: unknown): unknown {
  if (!(error instanceof CaldavError)) return error;
  switch (error.kind) {
    case 'auth':
      return new AppError(409, 'CALDAV_RECONNECT', 'El servidor CalDAV ya no acepta la contraseña guardada: vuelve a conectar CalDAV');
    case 'conflict':
      return new AppError(409, 'CALDAV_CONFLICT', CALDAV_CONFLICT_MESSAGE);
    case 'not_found':
      return eventNotFound();
    case 'forbidden':
      return new AppError(403, 'CALDAV_FORBIDDEN', 'El servidor CalDAV no permite modificar este calendario');
    case 'invalid':
    case 'insecure':
      return new AppError(400, 'CALDAV_REJECTED', 'El servidor CalDAV rechazó los datos del evento');
    default:
      return new AppError(502, 'CALDAV_UNAVAILABLE', 'El servidor CalDAV no responde. Inténtalo de nuevo en unos minutos');
  }
}

/**
 * Making a calendar: a server that refuses (no MKCALENDAR, no right to create, the home gone) says so in
 * words that point to the provider's own app; the other failures as after connecting.
 */
export function makeCalendarError(error: unknown): unknown {
  if (!(error instanceof CaldavError) || error.kind === 'auth' || error.kind === 'unavailable') return caldavAppError(error);
  return new AppError(
    409,
    'CALDAV_CALENDAR_REFUSED',
    'Tu servidor CalDAV no nos deja crear calendarios. Créalo en la web o la app de tu proveedor y pulsa Actualizar',
  );
}
