import { Type } from '@sinclair/typebox';
import {
  ChangePasswordBody,
  ErrorResponse,
  LoginBody,
  MeResponse,
  RegisterBody,
  securityClient,
  SessionResponse,
  SuccessResponse,
  UpdateProfileBody,
  UserResponse,
} from '@asistente/contracts';
import type { App, Revocations } from '@asistente/kit';
import type { UsersService } from '../domain/users.service.js';
import type { WorkspacesService } from '../domain/workspaces.service.js';
import { sessionIssuer } from './session-issuer.js';

export interface AuthRoutesDeps {
  users: UsersService;
  workspaces: WorkspacesService;
  revocations: Revocations;
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };

export async function authRoutes(app: App, { users, workspaces, revocations }: AuthRoutesDeps): Promise<void> {
  const issue = sessionIssuer(app);

  app.post('/auth/register', {
    config: { public: true },
    schema: { summary: 'Crea una cuenta y abre su sesión', body: RegisterBody, response: { 201: SessionResponse, ...errors } },
    handler: async (request, reply) => {
      const { user, workspace } = await users.register(request.body);
      return reply.code(201).send({ user, token: issue(user.id, workspace), workspace });
    },
  });

  // Limited by the wrong-password budget of the users service (per account and per address, in PostgreSQL).
  app.post('/auth/login', {
    config: { public: true },
    schema: { summary: 'Inicia sesión con correo y contraseña', body: LoginBody, response: { 200: SessionResponse, ...errors } },
    handler: async (request) => {
      const { user, workspace } = await users.login(request.body, securityClient(request));
      return { user, token: issue(user.id, workspace), workspace };
    },
  });

  app.get('/auth/me', {
    schema: { summary: 'Devuelve el perfil del usuario y el espacio de trabajo de la sesión, con su rol', response: { 200: MeResponse, ...errors } },
    handler: async (request) => ({ user: await users.get(request.user.id), workspace: await workspaces.current(request.user) }),
  });

  app.put('/auth/me', {
    schema: { summary: 'Actualiza el perfil del usuario', body: UpdateProfileBody, response: { 200: UserResponse, ...errors } },
    handler: async (request) => ({ user: await users.updateProfile(request.user.id, request.body) }),
  });

  app.put('/auth/password', {
    schema: { summary: 'Cambia la contraseña, cierra las demás sesiones y revoca los tokens de acceso', body: ChangePasswordBody, response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      // Whoever knew the old password loses every session and personal token; the session that changed it stays.
      await users.changePassword(request.user.id, request.user.jti, request.body, securityClient(request));
      return { success: true as const };
    },
  });

  app.post('/auth/logout', {
    schema: { summary: 'Cierra la sesión actual', response: { 204: Type.Null(), 401: ErrorResponse } },
    handler: async (request, reply) => {
      await revocations.revoke(request.user.jti, request.user.id, new Date(request.user.exp * 1000));
      await users.logout(request.user, securityClient(request));
      return reply.code(204).send(null);
    },
  });
}
