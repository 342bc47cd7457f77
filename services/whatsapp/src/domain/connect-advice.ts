import type { WhatsAppConnectResult, WhatsAppState } from '@asistente/contracts';

/** The reason a never-linked account shows once it stopped retrying (no QR came: the phone never took part). */
export const GAVE_UP_REASON = 'No se pudo contactar con los servidores de WhatsApp después de varios intentos.';

/**
 * What a connect call answers when it has neither a QR nor a connection to show: where things stand and, in
 * plain Spanish, what the owner can do next (never a bare error: the web shows this text as it is).
 */
export function notLinkedYet(state: WhatsAppState): WhatsAppConnectResult {
  return { connected: false, qrCode: null, state, message: ADVICE[state] ?? ADVICE.connecting };
}

const ADVICE: Partial<Record<WhatsAppState, string>> = {
  connecting: 'WhatsApp está tardando en responder. Seguimos intentándolo: el código QR aparecerá aquí en cuanto llegue.',
  // No QR came in either: the phone never took part, so only the server's connection is worth checking.
  error:
    'Todavía no hemos podido contactar con los servidores de WhatsApp y lo seguimos intentando. Si no se resuelve, revisa la conexión a internet del servidor.',
  failed:
    'No se pudo contactar con los servidores de WhatsApp. Revisa la conexión a internet del servidor y pulsa «Reintentar». Si sigue sin funcionar, inténtalo más tarde.',
  disconnected: 'La conexión se cerró antes de mostrar el código QR. Pulsa «Conectar WhatsApp» para intentarlo de nuevo.',
  logged_out: 'La conexión se cerró antes de mostrar el código QR. Pulsa «Conectar WhatsApp» para intentarlo de nuevo.',
};
