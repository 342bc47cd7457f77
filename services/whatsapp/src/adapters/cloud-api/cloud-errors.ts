// The Cloud API's failures in the owner's words. Every call ends in one of these, never a 500 or a hang.
import { CLOUD_WINDOW_CLOSED } from '@asistente/contracts';
import { AppError, badRequest, conflict } from '@asistente/kit';
import { GraphError } from './graph-client.js';

export const CLOUD_NOT_CONFIGURED = 'La API oficial de WhatsApp no está disponible en este servidor. Pide al administrador que la configure.';
export const CLOUD_NOT_CONNECTED = 'La API oficial de WhatsApp no está conectada';
export const CLOUD_UNREACHABLE = 'No se pudo contactar con WhatsApp. Vuelve a intentarlo en unos minutos.';
export const CLOUD_TOKEN_REFUSED = 'WhatsApp rechazó el token de acceso: comprueba que es válido y no ha caducado';
export const CLOUD_NO_PERMISSION = 'El token de acceso no tiene permiso para gestionar este número o esta cuenta de WhatsApp Business';
export const CLOUD_UNKNOWN_NUMBER = 'WhatsApp no encuentra ese identificador de número de teléfono';
export const CLOUD_UNKNOWN_ACCOUNT = 'WhatsApp no encuentra ese identificador de cuenta de WhatsApp Business';
export const CLOUD_NUMBER_TAKEN = 'Este número ya está conectado en otro espacio de trabajo';
export const CLOUD_PHONES_ONLY = 'La API oficial de WhatsApp solo envía mensajes a números de teléfono';
export const CLOUD_SEND_REFUSED = 'WhatsApp no aceptó el mensaje';
export const CLOUD_DISCONNECTED_UNSENT = 'No se envió: la API oficial de WhatsApp se desconectó antes de enviarlo';

export const notConfigured = () => new AppError(503, 'WHATSAPP_CLOUD_NOT_CONFIGURED', CLOUD_NOT_CONFIGURED);
export const notConnected = () => conflict(CLOUD_NOT_CONNECTED, 'WHATSAPP_CLOUD_NOT_CONNECTED');
export const unreachable = () => new AppError(502, 'WHATSAPP_CLOUD_UNREACHABLE', CLOUD_UNREACHABLE);
export const windowClosed = () => conflict(CLOUD_WINDOW_CLOSED, 'WHATSAPP_CLOUD_WINDOW_CLOSED');

/** A failed call while connecting: what the owner typed is wrong (400), or Meta did not answer (502). */
export function connectFailure(error: unknown, what: 'number' | 'account'): AppError {
  if (!(error instanceof GraphError) || error.failure === 'unreachable') return unreachable();
  switch (error.failure) {
    case 'auth':
      return badRequest(CLOUD_TOKEN_REFUSED, 'WHATSAPP_CLOUD_TOKEN_REFUSED');
    case 'permission':
      return badRequest(CLOUD_NO_PERMISSION, 'WHATSAPP_CLOUD_NO_PERMISSION');
    case 'not_found':
      return what === 'number' ? badRequest(CLOUD_UNKNOWN_NUMBER, 'WHATSAPP_CLOUD_UNKNOWN_NUMBER') : badRequest(CLOUD_UNKNOWN_ACCOUNT, 'WHATSAPP_CLOUD_UNKNOWN_ACCOUNT');
    default:
      return badRequest(CLOUD_TOKEN_REFUSED, 'WHATSAPP_CLOUD_TOKEN_REFUSED');
  }
}

/** A call on a connected account (templates, uploads): a token that stopped working says so; the rest is 502. */
export function callFailure(error: unknown): AppError {
  if (error instanceof GraphError && error.failure === 'auth') return conflict(CLOUD_TOKEN_REFUSED, 'WHATSAPP_CLOUD_TOKEN_REFUSED');
  if (error instanceof GraphError && error.failure === 'permission') return conflict(CLOUD_NO_PERMISSION, 'WHATSAPP_CLOUD_NO_PERMISSION');
  if (error instanceof GraphError && error.failure !== 'unreachable') return conflict(CLOUD_SEND_REFUSED, 'WHATSAPP_CLOUD_REFUSED');
  return unreachable();
}

/**
 * Why Meta refused a send, kept with the failed message. 131047: the customer-service window had closed;
 * 131026 and 131030: the number cannot receive it.
 */
export function sendRefusal(error: GraphError): string {
  if (error.code === 131047) return CLOUD_WINDOW_CLOSED;
  if (error.failure === 'auth') return CLOUD_TOKEN_REFUSED;
  if (error.code === 131026 || error.code === 131030) return 'Este número no puede recibir mensajes de WhatsApp';
  return CLOUD_SEND_REFUSED;
}
