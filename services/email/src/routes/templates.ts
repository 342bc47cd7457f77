import { Type } from '@sinclair/typebox';
import { EmailPreview, EmailPreviewBody, EmailTemplate, EmailTemplateBody, ErrorResponse, FilledTemplate, IdParams, TemplateFillQuery } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { Personalizer } from '../domain/personalize.js';
import type { TemplatesService } from '../domain/templates.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

export async function templateRoutes(app: App, { templates, personalizer }: { templates: TemplatesService; personalizer: Personalizer }): Promise<void> {
  app.get('/emails/templates', {
    schema: { summary: 'Lista las plantillas de correo', response: { 200: Type.Array(EmailTemplate), ...errors } },
    handler: (request) => templates.list(request.user.id),
  });

  app.post('/emails/templates', {
    schema: { summary: 'Crea una plantilla de correo', body: EmailTemplateBody, response: { 201: EmailTemplate, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await templates.create(request.user.id, request.body)),
  });

  app.put('/emails/templates/:id', {
    schema: { summary: 'Actualiza una plantilla de correo', params: IdParams, body: EmailTemplateBody, response: { 200: EmailTemplate, ...errors } },
    handler: (request) => templates.update(request.user.id, request.params.id, request.body),
  });

  app.delete('/emails/templates/:id', {
    schema: { summary: 'Elimina una plantilla de correo', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await templates.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get('/emails/templates/:id/fill', {
    schema: { summary: 'Rellena una plantilla para un destinatario', params: IdParams, querystring: TemplateFillQuery, response: { 200: FilledTemplate, ...errors } },
    handler: (request) => templates.fill(request.user.id, request.params.id, request.query.to, request.user.scopes),
  });

  // Redactar's preview: what the first recipient would get now; the send fills each recipient again.
  app.post('/emails/preview', {
    schema: { summary: 'Previsualiza un correo con sus variables', body: EmailPreviewBody, response: { 200: EmailPreview, ...errors } },
    handler: (request) => personalizer.preview(request.user.id, request.body, request.user.scopes),
  });
}
