import { AvailabilityBody, ConversationMentionList, ErrorResponse, InboxMemberList, InboxSettings, UpdateInboxSettingsBody } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { InboxTeam } from '../domain/inbox-team.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** How the team shares the inbox: the assignment rule, who is available, and the notes that named me. */
export async function teamRoutes(app: App, { team }: { team: InboxTeam }): Promise<void> {
  app.get('/conversations/settings', {
    schema: { summary: 'Reglas de la bandeja compartida', response: { 200: InboxSettings, ...errors } },
    handler: (request) => team.settings(request.user.workspaceId),
  });

  app.patch('/conversations/settings', {
    schema: {
      summary: 'Cambia cómo se asignan las conversaciones nuevas y quién puede responder',
      body: UpdateInboxSettingsBody,
      response: { 200: InboxSettings, ...errors },
    },
    handler: (request) => team.updateSettings(request.user.workspaceId, request.body),
  });

  app.get('/conversations/members', {
    schema: { summary: 'Miembros que atienden la bandeja: disponibilidad y conversaciones abiertas', response: { 200: InboxMemberList, ...errors } },
    handler: (request) => team.members(request.user.workspaceId),
  });

  app.put('/conversations/availability', {
    schema: { summary: 'Te marca «Disponible» o «Ausente» para la asignación automática', body: AvailabilityBody, response: { 200: AvailabilityBody, ...errors } },
    handler: (request) => team.setAvailable(request.user, request.body.available),
  });

  app.get('/conversations/mentions', {
    schema: { summary: 'Notas que te mencionan (@Nombre), las más recientes primero', response: { 200: ConversationMentionList, ...errors } },
    handler: (request) => team.mentions(request.user),
  });
}
