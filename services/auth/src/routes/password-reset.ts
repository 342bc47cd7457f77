import {
  ErrorResponse,
  ForgotPasswordBody,
  ForgotPasswordResponse,
  PasswordResetAvailability,
  ResetPasswordBody,
  securityClient,
  SuccessResponse,
} from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { PasswordResetsService } from '../domain/password-resets.service.js';

export interface PasswordResetRoutesDeps {
  resets: PasswordResetsService;
  /** Reset mails per address per window, whatever the client address (the gateway limits per address). */
  forgotLimit: { max: number; timeWindow: number };
}

/** The same words whether or not an account has the address. */
export const FORGOT_ANSWER = 'Si hay una cuenta con ese correo, te hemos enviado un enlace para restablecer la contraseña. Revisa tu bandeja de entrada.';

const errors = { 400: ErrorResponse, 429: ErrorResponse };

export async function passwordResetRoutes(app: App, { resets, forgotLimit }: PasswordResetRoutesDeps): Promise<void> {
  app.get('/auth/password/reset-available', {
    config: { public: true },
    schema: { summary: 'Indica si se puede recuperar la contraseña por correo', response: { 200: PasswordResetAvailability } },
    handler: async () => ({ available: resets.available }),
  });

  app.post('/auth/password/forgot', {
    config: {
      public: true,
      rateLimit: {
        max: forgotLimit.max,
        timeWindow: forgotLimit.timeWindow,
        hook: 'preHandler',
        // Per address: nobody floods one inbox with reset mails by changing the client address.
        keyGenerator: (request) => `forgot|${String((request.body as { email?: unknown })?.email ?? '').trim().toLowerCase()}`,
      },
    },
    schema: { summary: 'Envía un enlace para restablecer la contraseña', body: ForgotPasswordBody, response: { 202: ForgotPasswordResponse, ...errors } },
    handler: async (request, reply) => {
      await resets.requestLink(request.body.email);
      return reply.code(202).send({ message: FORGOT_ANSWER });
    },
  });

  app.post('/auth/password/reset', {
    config: { public: true },
    schema: { summary: 'Restablece la contraseña con el enlace recibido, cierra las sesiones y revoca los tokens de acceso', body: ResetPasswordBody, response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      // Whoever got into the account keeps nothing: every session and personal token of the user ends.
      await resets.reset(request.body, securityClient(request));
      return { success: true as const };
    },
  });

  app.addHook('onClose', async () => resets.close());
}
