import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '@asistente/contracts';
import { AppError, type App } from '@asistente/kit';
import type { CloudApiProvider } from '../adapters/cloud-api/cloud-provider.js';

const HandshakeQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 50 })),
  'hub.verify_token': Type.Optional(Type.String({ maxLength: 500 })),
  'hub.challenge': Type.Optional(Type.String({ maxLength: 500 })),
});

const SignatureHeaders = Type.Object({ 'x-hub-signature-256': Type.Optional(Type.String({ maxLength: 200 })) });

/** Meta's webhook bodies are small (a few KB); a larger one is not Meta's. */
const WEBHOOK_BODY_LIMIT = 1_048_576;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The Cloud API's webhook (public: Meta sends no session). GET is the verification handshake Meta makes when
 * the URL is set in the app's dashboard; POST carries messages and statuses, signed with the app secret. The
 * POST is answered as soon as the webhook is stored: the messages are processed after, on any replica.
 */
export async function cloudWebhookRoutes(app: App, { cloud, verifyToken }: { cloud: CloudApiProvider; verifyToken: string | undefined }): Promise<void> {
  app.get('/whatsapp/cloud/webhook', {
    config: { public: true },
    schema: { summary: 'Verificación del webhook de la API oficial de WhatsApp', querystring: HandshakeQuery, response: { 200: Type.String(), 403: ErrorResponse, 503: ErrorResponse } },
    handler: async (request, reply) => {
      if (!verifyToken) throw new AppError(503, 'WHATSAPP_CLOUD_NOT_CONFIGURED', 'Webhook no configurado');
      const query = request.query;
      const challenge = query['hub.challenge'];
      if (query['hub.mode'] !== 'subscribe' || !challenge || !sameSecret(query['hub.verify_token'] ?? '', verifyToken)) {
        throw new AppError(403, 'WHATSAPP_CLOUD_VERIFY_REFUSED', 'Token de verificación incorrecto');
      }
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  });

  // The signature covers the bytes Meta sent: this route keeps them as they came, not parsed JSON.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    (scope as App).post('/whatsapp/cloud/webhook', {
      config: { public: true },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { summary: 'Mensajes y estados de la API oficial de WhatsApp', headers: SignatureHeaders, response: { 200: SuccessResponse, 400: ErrorResponse, 401: ErrorResponse, 503: ErrorResponse } },
      handler: async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const stored = await cloud.webhooks.accept(raw, request.headers['x-hub-signature-256']);
        // Processed after the answer (Meta wants one within seconds; the work may take longer).
        if (stored > 0) setImmediate(() => void cloud.webhooks.process());
        return { success: true as const };
      },
    });
  });
}
