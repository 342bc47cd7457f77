import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { PushChannelsService } from '../domain/push-channels.service.js';

const NotificationHeaders = Type.Object({
  'x-goog-channel-id': Type.Optional(Type.String({ maxLength: 200 })),
  'x-goog-channel-token': Type.Optional(Type.String({ maxLength: 256 })),
  'x-goog-resource-state': Type.Optional(Type.String({ maxLength: 40 })),
});

/**
 * Google's push notifications (events.watch channels). Public: Google sends no bearer token; the channel id
 * and the secret token set when the channel was opened say which mirror to refresh (404 / 403 otherwise).
 */
export async function googleNotificationRoutes(app: App, { push }: { push: PushChannelsService }): Promise<void> {
  app.post('/google/notifications', {
    config: { public: true },
    schema: { summary: 'Recibe los avisos de cambios de Google Calendar', headers: NotificationHeaders, response: { 200: SuccessResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } },
    handler: async (request) => {
      const headers = request.headers;
      await push.notified({
        channelId: headers['x-goog-channel-id'],
        token: headers['x-goog-channel-token'],
        state: headers['x-goog-resource-state'],
      });
      return { success: true as const };
    },
  });
}
