import {
  ConversationDetail,
  ConversationEntries,
  ConversationEntry,
  ConversationMessagesQuery,
  ConversationNoteBody,
  ConversationSendConflict,
  ErrorResponse,
  IdParams,
  inboxRoutes,
  InboxCounts,
  InboxCountsQuery,
  InboxList,
  InboxQuery,
  SendConversationMessageBody,
  SendHeaders,
} from '@asistente/contracts';
import { Type } from '@sinclair/typebox';
import { describedRoute, errorBody, type App } from '@asistente/kit';
import { StaleSend, type ConversationsService } from '../domain/conversations.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The team's inbox: conversations of every channel, their threads, answers, notes, assignment and status. */
export async function conversationRoutes(app: App, { conversations }: { conversations: ConversationsService }): Promise<void> {
  app.get('/conversations', {
    schema: { summary: 'Lista las conversaciones del equipo (actividad más reciente primero)', querystring: InboxQuery, response: { 200: InboxList, ...errors } },
    handler: (request) => conversations.list(request.user, request.query),
  });

  app.get('/conversations/counts', {
    schema: { summary: 'Cuántas conversaciones hay en «Mías», «Sin asignar» y «Todas»', querystring: InboxCountsQuery, response: { 200: InboxCounts, ...errors } },
    handler: (request) => conversations.counts(request.user, request.query.status),
  });

  describedRoute(app, inboxRoutes.lookup, {
    summary: 'Busca la conversación de un cliente en un canal',
    errors,
    handler: (request) => conversations.lookup(request.user.workspaceId, request.query.channel, request.query.handle),
  });

  app.get('/conversations/:id', {
    schema: { summary: 'Devuelve una conversación con sus últimos mensajes (la marca como leída)', params: IdParams, response: { 200: ConversationDetail, ...errors } },
    handler: (request) => conversations.detail(request.user, request.params.id),
  });

  app.get('/conversations/:id/messages', {
    schema: {
      summary: 'Mensajes y notas de una conversación, los anteriores a `before`',
      params: IdParams,
      querystring: ConversationMessagesQuery,
      response: { 200: ConversationEntries, ...errors },
    },
    handler: (request) => conversations.entries(request.user, request.params.id, request.query),
  });

  app.post('/conversations/:id/messages', {
    schema: {
      summary: 'Responde al cliente por el canal de la conversación, en tu nombre',
      params: IdParams,
      headers: SendHeaders,
      body: SendConversationMessageBody,
      // 409: a colleague's answer meanwhile (with it), or the channel's own refusal (WhatsApp not linked).
      response: { 201: ConversationEntry, 409: Type.Union([ConversationSendConflict, ErrorResponse]), ...errors },
    },
    handler: async (request, reply) => {
      try {
        const entry = await conversations.send(request.user, request.params.id, request.body.text, {
          force: request.body.force,
          idempotencyKey: request.headers['idempotency-key'],
        });
        return reply.code(201).send(entry);
      } catch (error) {
        if (!(error instanceof StaleSend)) throw error;
        return reply.code(409).send({ ...errorBody(409, error.code, error.message), answer: error.answer });
      }
    },
  });

  describedRoute(app, inboxRoutes.excerpt, {
    summary: 'Entradas de una conversación por su id, con la conversación tal como está (lo que el asistente lee antes de responder)',
    errors,
    handler: (request) => conversations.excerpt(request.user.workspaceId, request.params.id, request.query),
  });

  describedRoute(app, inboxRoutes.assistantAnswer, {
    summary: 'La respuesta del asistente al cliente (solo el propio servicio del asistente; un miembro recibe 403)',
    status: 201,
    // 409: a person took the conversation over, or the channel's own refusal.
    errors: { 409: ErrorResponse, ...errors },
    handler: async (request, reply) => {
      const entry = await conversations.answerAsAssistant(request.user.workspaceId, request.params.id, request.body.text, request.body.answerId);
      return reply.code(201).send(entry);
    },
  });

  app.post('/conversations/:id/notes', {
    schema: {
      summary: 'Añade una nota privada (solo la ven los miembros; @Nombre avisa a esa persona)',
      params: IdParams,
      body: ConversationNoteBody,
      response: { 201: ConversationEntry, ...errors },
    },
    handler: async (request, reply) => reply.code(201).send(await conversations.note(request.user, request.params.id, request.body.text)),
  });

  describedRoute(app, inboxRoutes.update, {
    summary: 'Cambia el estado, la persona asignada (null la quita) o el asistente de una conversación',
    errors,
    handler: (request) => conversations.update(request.user, request.params.id, request.body),
  });
}
