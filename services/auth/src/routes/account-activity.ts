import { ErrorResponse, SecurityActivityPage, SecurityActivityQuery } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { SecurityActivityRepository } from '../domain/security-activity.repository.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse };

/** The caller's security activity log, newest first (Configuración → "Actividad de seguridad"). */
export async function accountActivityRoutes(app: App, { activity }: { activity: SecurityActivityRepository }): Promise<void> {
  app.get('/account/activity', {
    schema: { summary: 'Lista la actividad de seguridad de la cuenta', querystring: SecurityActivityQuery, response: { 200: SecurityActivityPage, ...errors } },
    handler: async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await activity.page(request.user.workspaceId, page, limit);
      return { data: rows, pagination: { total, page, limit } };
    },
  });
}
