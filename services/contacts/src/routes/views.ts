import { Type } from '@sinclair/typebox';
import { ContactView, ContactViewBody, ContactViewList, ErrorResponse, IdParams } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { SavedViews } from '../domain/saved-views.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** Saved views of the contacts list: GET/POST /contacts/views, DELETE /contacts/views/:id. */
export async function viewRoutes(app: App, { views }: { views: SavedViews }): Promise<void> {
  app.get('/contacts/views', {
    schema: { summary: 'Lista las vistas guardadas', response: { 200: ContactViewList, ...errors } },
    handler: async (request) => ({ views: await views.list(request.user.id) }),
  });

  app.post('/contacts/views', {
    schema: { summary: 'Guarda una vista de la lista de contactos', body: ContactViewBody, response: { 201: ContactView, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await views.create(request.user.id, request.body)),
  });

  app.delete('/contacts/views/:id', {
    schema: { summary: 'Elimina una vista guardada', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await views.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
