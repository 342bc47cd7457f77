import { Type } from '@sinclair/typebox';
import {
  AuthorizationUrl,
  EmailIntegration,
  emailRoutes,
  ErrorResponse,
  IdParams,
  ImapIntegrationBody,
  OAuthCallbackQuery,
  OAuthProviderParams,
  OAuthProvidersStatus,
  RedirectResponse,
  securityClient,
  SuccessResponse,
  TrackingSettingBody,
} from '@asistente/contracts';
import { AppError, describedRoute, OAuthClient, type App, type Logger, type OAuthFlow } from '@asistente/kit';
import type { OAuthProvider } from '../adapters/oauth-provider.js';
import type { OAuthProviderName } from '../domain/mail-oauth.js';
import type { AccountsService } from '../domain/accounts.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse };

export interface IntegrationDeps {
  accounts: AccountsService;
  oauth: Record<OAuthProviderName, OAuthProvider>;
  /** Each provider's flow: browser-bound, single-use state and PKCE. */
  flows: Record<OAuthProviderName, OAuthFlow>;
  /** Where the browser returns after the provider's consent screen. */
  screenUrl: string;
  log: Logger;
}

export async function integrationRoutes(app: App, deps: IntegrationDeps): Promise<void> {
  const { accounts, oauth, flows, screenUrl, log } = deps;
  // The kit's authorization-code flow per provider: state, PKCE and the code exchange in one sequence.
  const clients = { gmail: new OAuthClient(flows.gmail, oauth.gmail), outlook: new OAuthClient(flows.outlook, oauth.outlook) };

  describedRoute(app, emailRoutes.integrations, {
    summary: 'Lista las cuentas de correo conectadas',
    errors,
    handler: (request) => accounts.list(request.user.id),
  });

  app.get('/emails/integrations/providers', {
    schema: { summary: 'Proveedores de correo disponibles (Gmail, Outlook)', response: { 200: OAuthProvidersStatus, ...errors } },
    handler: () => {
      const status = (name: OAuthProviderName) => {
        const message = oauth[name].notConfiguredMessage();
        return { configured: message === null, message };
      };
      return { gmail: status('gmail'), outlook: status('outlook') };
    },
  });

  app.post('/emails/integrations/test', {
    schema: { summary: 'Prueba una cuenta IMAP/SMTP sin guardarla', body: ImapIntegrationBody, response: { 200: SuccessResponse, 429: ErrorResponse, ...errors } },
    handler: async (request) => {
      await accounts.test(request.user.id, request.body);
      return { success: true as const };
    },
  });

  app.post('/emails/integrations', {
    schema: { summary: 'Conecta una cuenta IMAP/SMTP', body: ImapIntegrationBody, response: { 201: EmailIntegration, 429: ErrorResponse, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await accounts.connectImap(request.user.id, request.body, securityClient(request))),
  });

  app.put('/emails/integrations/:id/tracking', {
    schema: { summary: 'Activa o desactiva el seguimiento de una cuenta', params: IdParams, body: TrackingSettingBody, response: { 200: EmailIntegration, ...errors } },
    handler: (request) => accounts.setTracking(request.user.id, request.params.id, request.body.tracking),
  });

  app.delete('/emails/integrations/:id', {
    schema: { summary: 'Desconecta una cuenta de correo', params: IdParams, response: { 204: Type.Null(), ...errors } },
    handler: async (request, reply) => {
      await accounts.disconnect(request.user.id, request.params.id, securityClient(request));
      return reply.code(204).send(null);
    },
  });

  app.get('/emails/integrations/:provider/connect', {
    schema: { summary: 'Empieza la conexión con Gmail u Outlook', params: OAuthProviderParams, response: { 200: AuthorizationUrl, ...errors } },
    handler: (request, reply) => {
      const provider = oauth[request.params.provider];
      provider.assertConfigured();
      const { url, cookie } = clients[provider.name].start(request.user.id);
      void reply.header('set-cookie', cookie);
      return { url };
    },
  });

  // The provider sends the browser here: no bearer token; the signed state says whose account it is, the cookie that this is their browser.
  app.get('/emails/integrations/:provider/callback', {
    config: { public: true },
    schema: { summary: 'Vuelta de la autorización de Gmail u Outlook', params: OAuthProviderParams, querystring: OAuthCallbackQuery, response: { 302: RedirectResponse('Vuelve a la pantalla de Correo con `connected` o un `error` en español') } },
    handler: async (request, reply) => {
      const provider = oauth[request.params.provider];
      const client = clients[provider.name];
      const back = (params: Record<string, string>) =>
        reply.header('set-cookie', client.clearCookie).redirect(`${screenUrl}?${new URLSearchParams(params).toString()}`);
      const state = await client.finish(request.query, request.headers.cookie);
      if (!state.ok && state.reason === 'invalid') return back({ error: 'La autorización caducó o no es válida. Vuelve a conectar la cuenta.' });
      if (!state.ok && state.reason === 'denied') return back({ error: 'No se concedió el acceso a la cuenta de correo.' });
      if (!state.ok) return back({ error: 'No se pudo completar la conexión. Vuelve a intentarlo desde esta pantalla.' });
      try {
        const tokens = await state.redeem();
        await accounts.connectOAuth(state.userId, provider, tokens, securityClient(request));
        return back({ connected: provider.name });
      } catch (error) {
        log.warn({ err: error, provider: provider.name }, 'mail OAuth callback failed');
        const message = error instanceof AppError ? error.message : 'No se pudo completar la conexión con el proveedor.';
        return back({ error: message });
      }
    },
  });
}
