import { ConversationEntry, ConversationSuggestionBody, ErrorResponse, IdParams } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { Suggestions } from '../domain/suggestions.js';

// 409: no OpenAI key (or OpenAI refused it); 502/503/504: the assistant or OpenAI failing or too slow.
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

/** "Sugerir respuesta": the assistant drafts an answer to the customer, kept in the thread for members only. */
export async function suggestionRoutes(app: App, { suggestions }: { suggestions: Suggestions }): Promise<void> {
  app.post('/conversations/:id/suggestions', {
    schema: {
      summary: 'Pide al asistente una respuesta sugerida para el cliente (privada: solo la ven los miembros; nunca se envía)',
      params: IdParams,
      body: ConversationSuggestionBody,
      response: { 201: ConversationEntry, ...errors },
    },
    handler: async (request, reply) => reply.code(201).send(await suggestions.suggest(request.user, request.params.id, request.body.instruction)),
  });
}
