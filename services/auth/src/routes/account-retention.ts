import { ErrorResponse, RetentionSettings } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { RetentionService } from '../domain/retention.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/**
 * Configuración → "Conservación de datos": how many days WhatsApp messages, mail bodies and AI runs are kept.
 * Account settings are the owner's, signed in: the scope table opens /account to no personal token.
 */
export async function accountRetentionRoutes(app: App, { retention }: { retention: RetentionService }): Promise<void> {
  app.get('/account/retention', {
    schema: { summary: 'Lee cuánto tiempo se conservan los datos', response: { 200: RetentionSettings, ...errors } },
    handler: async (request) => retention.get(request.user.id),
  });
  app.put('/account/retention', {
    schema: { summary: 'Cambia cuánto tiempo se conservan los datos', body: RetentionSettings, response: { 200: RetentionSettings, ...errors } },
    handler: async (request) => retention.set(request.user.id, request.body),
  });
}
