import { AccountExport, AccountExportParams, AccountExportStarted, CurrentAccountExport, ErrorResponse, FileResponse, securityClient } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { AccountExportService } from '../domain/account-export.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse };

/**
 * Configuración → "Descargar mis datos" and `asistente export`: start, follow, download. Sessions only: auth
 * refuses personal access tokens on every route (the scope table opens /auth and /account to none).
 */
export async function accountExportRoutes(app: App, { exports }: { exports: AccountExportService }): Promise<void> {
  app.post('/account/export', {
    schema: {
      summary: 'Empieza a preparar el archivo con todos los datos de la cuenta',
      description:
        'Se prepara en segundo plano. Uno a la vez (409 si ya hay uno en preparación) y como máximo 3 cada 24 horas ' +
        '(429 con Retry-After y cuándo se podrá pedir el siguiente).',
      response: { 202: AccountExportStarted, ...errors, 409: ErrorResponse, 429: ErrorResponse },
    },
    handler: async (request, reply) => reply.code(202).send(await exports.start(request.user, securityClient(request))),
  });
  app.get('/account/export', {
    schema: {
      summary: 'La exportación de datos en preparación o todavía descargable, si la hay',
      description: 'La más reciente que se está preparando o que está lista y no ha caducado; `export` es null si no hay ninguna.',
      response: { 200: CurrentAccountExport, ...errors },
    },
    handler: async (request) => ({ export: await exports.current(request.user.id) }),
  });
  app.get('/account/export/:id', {
    schema: { summary: 'Estado y progreso de una exportación de datos', params: AccountExportParams, response: { 200: AccountExport, ...errors } },
    handler: async (request) => exports.status(request.user.id, request.params.id),
  });
  app.get('/account/export/:id/download', {
    schema: {
      summary: 'Descarga el ZIP con los datos de la cuenta (24 horas)',
      params: AccountExportParams,
      response: { 200: FileResponse(['application/zip'], 'El archivo ZIP con los datos de la cuenta'), ...errors, 409: ErrorResponse },
    },
    handler: async (request, reply) => {
      const { stream, size, createdAt } = await exports.download(request.user.id, request.params.id);
      return reply
        .type('application/zip')
        .header('content-length', String(size))
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="mis-datos-${createdAt.toISOString().slice(0, 10)}.zip"`)
        .send(stream);
    },
  });
}
