import { Type } from '@sinclair/typebox';
import { contactsRoutes, ContactStats, ContactTags, ErrorResponse, IdParams } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { ContactsService } from '../domain/contacts.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

export async function contactRoutes(app: App, { contacts }: { contacts: ContactsService }): Promise<void> {
  describedRoute(app, contactsRoutes.list, {
    summary: 'Lista y busca contactos, por páginas',
    errors,
    handler: (request) => contacts.list(request.user.workspaceId, request.query),
  });

  app.get('/contacts/stats', {
    schema: { summary: 'Cifras de los contactos (total, empresas, etiquetas, con correo)', response: { 200: ContactStats, ...errors } },
    handler: (request) => contacts.stats(request.user.workspaceId),
  });

  app.get('/contacts/tags', {
    schema: { summary: 'Lista las etiquetas en uso', response: { 200: ContactTags, ...errors } },
    handler: async (request) => ({ tags: await contacts.tags(request.user.workspaceId) }),
  });

  describedRoute(app, contactsRoutes.byHandle, {
    summary: 'Busca los contactos de un cliente de la bandeja por su número',
    errors,
    handler: (request) => contacts.byHandle(request.user.workspaceId, request.query.handle),
  });

  describedRoute(app, contactsRoutes.get, {
    summary: 'Devuelve un contacto',
    errors,
    handler: (request) => contacts.get(request.user.workspaceId, request.params.id),
  });

  describedRoute(app, contactsRoutes.create, {
    summary: 'Crea un contacto',
    status: 201,
    errors,
    handler: async (request, reply) => reply.code(201).send(await contacts.create(request.user.workspaceId, request.body)),
  });

  describedRoute(app, contactsRoutes.update, {
    summary: 'Actualiza un contacto',
    errors,
    handler: (request) => contacts.update(request.user.workspaceId, request.params.id, request.body),
  });

  app.delete('/contacts/:id', {
    schema: { summary: 'Elimina un contacto', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await contacts.delete(request.user.workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
