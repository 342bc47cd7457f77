import { Type } from '@sinclair/typebox';
import {
  authRoutes,
  CreateInvitationBody,
  ErrorResponse,
  IdParams,
  MemberParams,
  securityClient,
  SessionResponse,
  SwitchWorkspaceBody,
  TransferWorkspaceBody,
  UpdateMemberBody,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceInvitation,
  WorkspaceInvitationList,
  WorkspaceList,
  WorkspaceMember,
} from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { InvitationsService } from '../domain/invitations.service.js';
import type { MembersService } from '../domain/members.service.js';
import type { UsersService } from '../domain/users.service.js';
import type { WorkspacesService } from '../domain/workspaces.service.js';
import { sessionIssuer } from './session-issuer.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };

export interface WorkspaceRoutesDeps {
  users: UsersService;
  workspaces: WorkspacesService;
  members: MembersService;
  invitations: InvitationsService;
}

/**
 * Configuración → "Equipo" and the header's switcher: the workspace a session acts in, its members and
 * invitations, the other workspaces a person has. Who may do what is the role table's (contracts).
 */
export async function workspaceRoutes(app: App, { users, workspaces, members, invitations }: WorkspaceRoutesDeps): Promise<void> {
  const issue = sessionIssuer(app);

  app.get('/workspace', {
    schema: { summary: 'Devuelve el espacio de trabajo de la sesión y el rol de quien pregunta', response: { 200: Workspace, ...errors } },
    handler: async (request) => workspaces.current(request.user),
  });

  app.patch('/workspace', {
    schema: { summary: 'Cambia el nombre del espacio de trabajo', body: UpdateWorkspaceBody, response: { 200: Workspace, ...errors } },
    handler: async (request) => workspaces.rename(request.user, request.body.name),
  });

  describedRoute(app, authRoutes.members, {
    summary: 'Lista los miembros del espacio de trabajo',
    errors,
    handler: async (request) => workspaces.members(request.user),
  });

  app.get('/auth/workspaces', {
    schema: { summary: 'Lista los espacios de trabajo de la persona, con su rol en cada uno', response: { 200: WorkspaceList, ...errors } },
    handler: async (request) => workspaces.list(request.user.id),
  });

  app.post('/auth/switch', {
    schema: {
      summary: 'Abre una sesión en otro espacio de trabajo de la misma persona',
      body: SwitchWorkspaceBody,
      response: { 200: SessionResponse, ...errors },
    },
    handler: async (request) => {
      const workspace = await workspaces.switchTo(request.user.id, request.body.workspaceId);
      return { user: await users.get(request.user.id), token: issue(request.user.id, workspace), workspace };
    },
  });

  app.patch('/workspace/members/:userId', {
    schema: { summary: 'Cambia el rol de un miembro (sus sesiones en el espacio terminan)', params: MemberParams, body: UpdateMemberBody, response: { 200: WorkspaceMember, ...errors } },
    handler: async (request) => members.changeRole(request.user, request.params.userId, request.body.role),
  });

  app.delete('/workspace/members/:userId', {
    schema: { summary: 'Quita a un miembro: sus sesiones y tokens del espacio terminan al momento', params: MemberParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await members.remove(request.user, request.params.userId);
      return reply.code(204).send(null);
    },
  });

  app.post('/workspace/transfer', {
    schema: {
      summary: 'Transfiere el espacio de trabajo a un administrador (quien lo transfiere queda como administrador)',
      body: TransferWorkspaceBody,
      response: { 200: SessionResponse, ...errors },
    },
    handler: async (request) => {
      await members.transfer(request.user, request.body.userId, request.body.password, securityClient(request));
      const workspace = await workspaces.switchTo(request.user.id, request.user.workspaceId);
      return { user: await users.get(request.user.id), token: issue(request.user.id, workspace), workspace };
    },
  });

  app.post('/workspace/invitations', {
    schema: {
      summary: 'Invita a una persona por correo con un rol; la respuesta trae el enlace',
      body: CreateInvitationBody,
      response: { 201: WorkspaceInvitation, ...errors },
    },
    handler: async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(await invitations.invite(request.user, request.body)),
  });

  app.get('/workspace/invitations', {
    schema: { summary: 'Lista las invitaciones pendientes, con su enlace', response: { 200: WorkspaceInvitationList, ...errors } },
    handler: async (request, reply) => reply.header('cache-control', 'no-store').send(await invitations.list(request.user)),
  });

  app.delete('/workspace/invitations/:id', {
    schema: { summary: 'Cancela una invitación pendiente: su enlace deja de funcionar', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await invitations.cancel(request.user, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
