import { AccountDeletionParams, AccountDeletionProgress, DeleteAccountBody, DeleteAccountStarted, ErrorResponse, securityClient } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { AccountDeletionService } from '../domain/account-deletion.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

/**
 * "Eliminar mi cuenta". The progress is read with the deletion's id alone: the sessions end with the
 * account, and the id (random, 122 bits, known only to whoever asked) opens nothing but per-service states.
 */
export async function accountDeletionRoutes(app: App, { deletions }: { deletions: AccountDeletionService }): Promise<void> {
  app.post('/account/delete', {
    schema: {
      summary: 'Elimina la cuenta y todos sus datos en cada servicio (pide la contraseña)',
      body: DeleteAccountBody,
      response: { 202: DeleteAccountStarted, ...errors },
    },
    handler: async (request, reply) => {
      const id = await deletions.request(request.user.id, request.body.password, securityClient(request));
      return reply.code(202).send({ id });
    },
  });

  app.get('/account/delete/:id', {
    config: { public: true },
    schema: {
      summary: 'Progreso de una eliminación de cuenta, servicio por servicio',
      params: AccountDeletionParams,
      response: { 200: AccountDeletionProgress, ...errors },
    },
    handler: async (request) => deletions.progress(request.params.id),
  });
}
