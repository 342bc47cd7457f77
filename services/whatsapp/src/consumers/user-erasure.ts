import type { UserErasure } from '@asistente/kit';
import type { SessionManager } from '../domain/session-manager.js';

export const WHATSAPP_NOT_LOGGED_OUT =
  'WhatsApp no estaba conectado y no se pudo cerrar la vinculación: quita el dispositivo en tu teléfono (Ajustes → Dispositivos vinculados)';

/**
 * WhatsApp's part of "Eliminar mi cuenta": the socket logs out through the replica that owns it (the lease's
 * hand-over), so the phone forgets the device, then the sweep erases the account, its sealed auth state,
 * chats, messages, contacts, automatic answers and totals (every `user_id` table of the schema).
 */
export function whatsappErasure(sessions: SessionManager): UserErasure {
  return {
    service: 'whatsapp',
    disconnect: async (userId) => ((await sessions.unlinkForErasure(userId)) ? [] : [WHATSAPP_NOT_LOGGED_OUT]),
  };
}
