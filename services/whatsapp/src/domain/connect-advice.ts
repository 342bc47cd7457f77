import type { WhatsAppConnectResult, WhatsAppState } from '@asistente/contracts';

/** The reason a never-linked account shows once it stopped retrying. */
export const GAVE_UP_REASON = 'No se pudo conectar con WhatsApp después de varios intentos.';

/**
 * What a connect call answers when it has neither a QR nor a connection to show: where things stand and, in
 * plain Spanish, what the owner can do next (never a bare error: the web shows this text as it is).
 */
export function notLinkedYet(state: WhatsAppState): WhatsAppConnectResult {
  return { connected: false, qrCode: null, state, message: ADVICE[state] ?? ADVICE.connecting };
}

const ADVICE: Partial<Record<WhatsAppState, string>> = {
  connecting: 'WhatsApp está tardando en responder. Seguimos intentándolo: el código QR aparecerá aquí en cuanto llegue.',
  error:
    'Todavía no hemos podido conectar con WhatsApp y lo seguimos intentando. Mientras tanto, comprueba que tu teléfono tiene conexión a internet.',
  failed:
    'No se pudo conectar con WhatsApp. Comprueba que tu teléfono tiene internet y que WhatsApp está actualizado, y pulsa «Reintentar». Si sigue sin funcionar, inténtalo más tarde.',
  disconnected: 'La conexión se cerró antes de mostrar el código QR. Pulsa «Conectar WhatsApp» para intentarlo de nuevo.',
  logged_out: 'La conexión se cerró antes de mostrar el código QR. Pulsa «Conectar WhatsApp» para intentarlo de nuevo.',
};
