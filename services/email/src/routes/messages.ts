import {
  DraftSaved,
  EmailAttachmentParams,
  EmailDeleted,
  EmailDetail,
  EmailDetailQuery,
  emailRoutes,
  EmailSent,
  ErrorResponse,
  FileResponse,
  ForwardBody,
  IdParams,
  ReplyBody,
  SaveDraftBody,
  SendEmailBody,
  SendHeaders,
  SuccessResponse,
} from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { DraftsService } from '../domain/drafts.js';
import type { MessagesService } from '../domain/messages.service.js';
import type { MailSender } from '../domain/sender.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse };
/** A retry with the key of a send in flight (409) or of another request (422). */
const sendErrors = { ...errors, 409: ErrorResponse, 422: ErrorResponse };
/** 25 MB of attachments travel as base64 inside JSON (4/3 of it) plus the text. */
const SEND_BODY_LIMIT = 36 * 1024 * 1024;

export async function messageRoutes(
  app: App,
  { messages, sender, drafts }: { messages: MessagesService; sender: MailSender; drafts: DraftsService },
): Promise<void> {
  describedRoute(app, emailRoutes.list, {
    summary: 'Lista los correos de una carpeta',
    errors,
    handler: (request) => messages.list(request.user.id, request.query),
  });

  app.post('/emails/send', {
    bodyLimit: SEND_BODY_LIMIT,
    schema: { summary: 'Envía un correo', headers: SendHeaders, body: SendEmailBody, response: { 200: EmailSent, ...sendErrors } },
    handler: (request) => sender.send(request.user.id, request.body, request.headers['idempotency-key'], request.user.scopes),
  });

  app.post('/emails/drafts', {
    schema: { summary: 'Guarda un borrador', body: SaveDraftBody, response: { 200: DraftSaved, ...errors } },
    handler: (request) => drafts.save(request.user.id, request.body),
  });

  app.get('/emails/:id', {
    schema: { summary: 'Devuelve un correo', params: IdParams, querystring: EmailDetailQuery, response: { 200: EmailDetail, ...errors } },
    handler: (request) => messages.get(request.user.id, request.params.id, request.query.images === '1'),
  });

  // A big mail's attachment arrives as a stream from the server: sent chunked, without a length.
  app.get('/emails/:id/attachments/:attachmentId', {
    schema: { summary: 'Descarga un adjunto', params: EmailAttachmentParams, response: { 200: FileResponse(['*/*'], 'El adjunto, con su tipo de contenido y su nombre en Content-Disposition'), ...errors } },
    handler: async (request, reply) => {
      const file = await messages.attachment(request.user.id, request.params.id, request.params.attachmentId);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  });

  app.put('/emails/:id/read', {
    schema: { summary: 'Marca un correo como leído', params: IdParams, response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await messages.markRead(request.user.id, request.params.id);
      return { success: true as const };
    },
  });

  app.delete('/emails/:id', {
    schema: { summary: 'Elimina un correo', params: IdParams, response: { 200: EmailDeleted, ...errors } },
    handler: async (request) => ({ success: true as const, ...(await messages.delete(request.user.id, request.params.id)) }),
  });

  app.post('/emails/:id/reply', {
    schema: { summary: 'Responde a un correo', headers: SendHeaders, params: IdParams, body: ReplyBody, response: { 200: EmailSent, ...sendErrors } },
    handler: (request) => sender.reply(request.user.id, request.params.id, request.body, request.headers['idempotency-key']),
  });

  app.post('/emails/:id/forward', {
    schema: { summary: 'Reenvía un correo', headers: SendHeaders, params: IdParams, body: ForwardBody, response: { 200: EmailSent, ...sendErrors } },
    handler: (request) => sender.forward(request.user.id, request.params.id, request.body, request.headers['idempotency-key']),
  });
}
