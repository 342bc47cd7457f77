import type { UserErasure } from '@asistente/kit';
import type { GoogleConnectionService } from '../domain/google-connection.service.js';
import type { PushChannelsService } from '../domain/push-channels.service.js';

export const GOOGLE_REVOKE_FAILED = 'Google no confirmó la revocación del acceso al calendario: puedes retirarlo en myaccount.google.com/permissions';

/**
 * Calendar's part of "Eliminar mi cuenta": the push channels open at Google are stopped and the grant is
 * revoked at Google's revocation endpoint before the rows holding it are swept (Google and CalDAV accounts,
 * calendars, events, meetings, channels: every `user_id` table of the schema).
 */
export function calendarErasure(connection: GoogleConnectionService, push: PushChannelsService): UserErasure {
  return {
    service: 'calendar',
    disconnect: async (userId) => {
      let revoked = true;
      await push.disconnect(userId, async () => {
        revoked = await connection.revokeGrant(userId);
      });
      return revoked ? [] : [GOOGLE_REVOKE_FAILED];
    },
  };
}
