import { aiRoutes, ErrorResponse } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { AssistantRunService } from '../domain/assistant-run.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

/**
 * The team inbox's "Sugerir respuesta": it asks here with the member's token (a service call; personal tokens
 * never reach /ai) and keeps the draft in the thread. A session may ask too: it only gets a draft back.
 */
export async function suggestionRoutes(app: App, { runner }: { runner: AssistantRunService }): Promise<void> {
  describedRoute(app, aiRoutes.suggestion, {
    summary: 'Propone una respuesta para el cliente de una conversación (un borrador, nunca se envía)',
    errors,
    handler: (request) => runner.suggest(request.user.workspaceId, request.body),
  });
}
