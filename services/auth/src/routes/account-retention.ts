import { ErrorResponse, RetentionSettings } from '@asistente/contracts';
import { AppError, type App } from '@asistente/kit';
import type { FastifyRequest } from 'fastify';
import type { RetentionService } from '../domain/retention.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/** Account settings are the owner's, signed in: a personal access token (it carries scopes) never reaches them. */
async function sessionOnly(request: FastifyRequest): Promise<void> {
  if (request.user.scopes) throw new AppError(403, 'SESSION_REQUIRED', 'Esta opción solo está disponible con la sesión iniciada en la aplicación');
}

/** Configuración → "Conservación de datos": how many days WhatsApp messages, mail bodies and AI runs are kept. */
export async function accountRetentionRoutes(app: App, { retention }: { retention: RetentionService }): Promise<void> {
  app.get('/account/retention', {
    schema: { summary: 'Lee cuánto tiempo se conservan los datos', response: { 200: RetentionSettings, ...errors } },
    preHandler: sessionOnly,
    handler: async (request) => retention.get(request.user.id),
  });
  app.put('/account/retention', {
    schema: { summary: 'Cambia cuánto tiempo se conservan los datos', body: RetentionSettings, response: { 200: RetentionSettings, ...errors } },
    preHandler: sessionOnly,
    handler: async (request) => retention.set(request.user.id, request.body),
  });
}
