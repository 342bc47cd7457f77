import { AcceptInvitationBody, ErrorResponse, InvitationPreview, InvitationTokenParams, SessionResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { InvitationsService } from '../domain/invitations.service.js';
import { sessionIssuer } from './session-issuer.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** The invitation page (`/invitacion`): reachable without a session, since the link is the key. */
export async function invitationRoutes(app: App, { invitations }: { invitations: InvitationsService }): Promise<void> {
  const issue = sessionIssuer(app);

  app.get('/auth/invitations/:token', {
    config: { public: true },
    schema: { summary: 'Muestra una invitación abierta: el espacio, quién invita, el rol y el correo', params: InvitationTokenParams, response: { 200: InvitationPreview, ...errors } },
    handler: async (request, reply) => reply.header('cache-control', 'no-store').send(await invitations.preview(request.params.token)),
  });

  app.post('/auth/invitations/accept', {
    config: { public: true },
    schema: {
      summary: 'Acepta una invitación: crea la cuenta (nombre, apellido y contraseña) o, con la sesión del correo invitado, se une',
      body: AcceptInvitationBody,
      response: { 200: SessionResponse, ...errors },
    },
    handler: async (request, reply) => {
      // Public, so a new person can accept; a session, when sent, must be valid and is who joins.
      const signedIn = request.headers.authorization !== undefined;
      if (signedIn) await app.authenticate(request, reply);
      const session = signedIn ? request.user : undefined;
      const { user, workspace } = await invitations.accept(request.body, session);
      return { user, token: issue(user.id, workspace), workspace };
    },
  });
}
