import { Contact, contactsRoutes, DuplicateGroups, ErrorResponse, IdParams, MergeBody } from '@asistente/contracts';
import { callerOf, describedRoute, notFound, type App } from '@asistente/kit';
import type { ContactTimeline as Timeline } from '../domain/contact-timeline.js';
import type { ContactsMerge } from '../domain/contacts-merge.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

/** One person across channels: duplicates, merge, and the timeline from the sibling services. */
export async function personRoutes(app: App, { merge, timeline }: { merge: ContactsMerge; timeline: Timeline }): Promise<void> {
  app.get('/contacts/duplicates', {
    schema: { summary: 'Lista los grupos de contactos duplicados', response: { 200: DuplicateGroups, ...errors } },
    handler: async (request) => ({ groups: await merge.duplicates(request.user.workspaceId) }),
  });

  app.post('/contacts/:id/merge', {
    schema: { summary: 'Fusiona contactos duplicados en uno', params: IdParams, body: MergeBody, response: { 200: Contact, ...errors } },
    handler: (request) => merge.merge(request.user.workspaceId, request.params.id, request.body.ids),
  });

  describedRoute(app, contactsRoutes.timeline, {
    summary: 'Historial del contacto en todos los canales',
    description: 'Con un token de acceso, solo las secciones de las áreas que cubren sus permisos (WhatsApp: whatsapp:read; correo: emails:read; calendario: calendar:read).',
    errors,
    handler: async (request) => {
      const keys = await merge.keys(request.user.workspaceId, request.params.id);
      if (!keys) throw notFound('Contacto no encontrado');
      return { sections: await timeline.sections(callerOf(request.user), keys, request.user.scopes) };
    },
  });
}
