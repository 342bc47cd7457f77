import { BulkCount, BulkDeleteBody, BulkDeleteResult, BulkRestoreBody, BulkTagsBody, ErrorResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { ContactsBulk } from '../domain/contacts-bulk.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

export async function bulkRoutes(app: App, { bulk }: { bulk: ContactsBulk }): Promise<void> {
  app.post('/contacts/bulk/tags', {
    schema: { summary: 'Añade o quita etiquetas a varios contactos', body: BulkTagsBody, response: { 200: BulkCount, ...errors } },
    handler: async (request) => ({
      count: await bulk.tags(request.user.workspaceId, request.body.selection, request.body.add, request.body.remove),
    }),
  });

  app.post('/contacts/bulk/delete', {
    schema: { summary: 'Elimina varios contactos (se puede deshacer)', body: BulkDeleteBody, response: { 200: BulkDeleteResult, ...errors } },
    handler: (request) => bulk.delete(request.user.workspaceId, request.body.selection),
  });

  app.post('/contacts/bulk/restore', {
    schema: { summary: 'Deshace una eliminación múltiple', body: BulkRestoreBody, response: { 200: BulkCount, ...errors } },
    handler: async (request) => ({ count: await bulk.restore(request.user.workspaceId, request.body.undoToken) }),
  });
}
