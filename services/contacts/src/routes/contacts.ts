import { Type } from '@sinclair/typebox';
import {
  Contact,
  ContactBody,
  ContactList,
  ContactListQuery,
  ContactMatches,
  ContactStats,
  ContactTags,
  ContactHandleQuery,
  ErrorResponse,
  IdParams,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { ContactsService } from '../domain/contacts.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

export async function contactRoutes(app: App, { contacts }: { contacts: ContactsService }): Promise<void> {
  app.get('/contacts', {
    schema: { summary: 'Lista y busca contactos, por páginas', querystring: ContactListQuery, response: { 200: ContactList, ...errors } },
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

  app.get('/contacts/by-handle', {
    schema: { summary: 'Busca los contactos de un cliente de la bandeja por su número', querystring: ContactHandleQuery, response: { 200: ContactMatches, ...errors } },
    handler: (request) => contacts.byHandle(request.user.workspaceId, request.query.handle),
  });

  app.get('/contacts/:id', {
    schema: { summary: 'Devuelve un contacto', params: IdParams, response: { 200: Contact, ...errors } },
    handler: (request) => contacts.get(request.user.workspaceId, request.params.id),
  });

  app.post('/contacts', {
    schema: { summary: 'Crea un contacto', body: ContactBody, response: { 201: Contact, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await contacts.create(request.user.workspaceId, request.body)),
  });

  app.put('/contacts/:id', {
    schema: { summary: 'Actualiza un contacto', params: IdParams, body: ContactBody, response: { 200: Contact, ...errors } },
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
