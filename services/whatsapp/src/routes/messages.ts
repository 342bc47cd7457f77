import { ErrorResponse, SyncContactsResult, whatsappRoutes, WhatsAppStats } from '@asistente/contracts';
import { describedRoute, type App } from '@asistente/kit';
import type { ContactsSyncService } from '../domain/contacts-sync.service.js';
import type { ConversationsService } from '../domain/conversations.service.js';
import type { OutboundService } from '../domain/outbound.service.js';
import type { SessionManager } from '../domain/session-manager.js';
import type { CloudApiProvider } from '../adapters/cloud-api/cloud-provider.js';
import { checkOneRecipient } from '../domain/outbound.service.js';
import { badRequest } from '@asistente/kit';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

interface Deps {
  conversations: ConversationsService;
  outbound: OutboundService;
  sessions: SessionManager;
  cloud: CloudApiProvider;
  contactsSync: ContactsSyncService;
}

export async function messageRoutes(app: App, { conversations, outbound, sessions, cloud, contactsSync }: Deps): Promise<void> {
  describedRoute(app, whatsappRoutes.conversations, {
    summary: 'Lista las conversaciones de WhatsApp',
    errors,
    handler: (request) => conversations.list(request.user.workspaceId, request.query),
  });

  describedRoute(app, whatsappRoutes.messages, {
    summary: 'Mensajes de una conversación de WhatsApp',
    errors,
    handler: (request) => conversations.history(request.user.workspaceId, request.query),
  });

  describedRoute(app, whatsappRoutes.send, {
    summary: 'Envía un mensaje de WhatsApp',
    status: 201,
    errors,
    handler: async (request, reply) => {
      const userId = request.user.workspaceId;
      // A workspace whose number is on the Cloud API sends through it (free text only inside the 24-hour window).
      if (await cloud.account(userId)) {
        const body = request.body;
        const text = (body.text ?? body.message ?? '').trim();
        if (!text) throw badRequest('Escribe un mensaje', 'VALIDATION_ERROR');
        checkOneRecipient(body);
        const jid = await outbound.recipient(userId, body, 'ES', undefined);
        return reply.code(201).send(await cloud.queueFree(userId, jid, text, body.origin ?? 'app', body.clientMessageId ?? null));
      }
      const session = sessions.local(userId);
      const message = await outbound.enqueue(userId, request.body, session ? (digits) => session.lookup(digits) : undefined);
      // The owner delivers it: this replica's socket at once, or the replica holding it, woken by a notification.
      await sessions.deliver(userId);
      return reply.code(201).send(message);
    },
  });

  app.get('/whatsapp/stats', {
    schema: { summary: 'Cifras de mensajes de WhatsApp', response: { 200: WhatsAppStats, ...errors } },
    handler: (request) => conversations.stats(request.user.workspaceId),
  });

  app.post('/whatsapp/sync-contacts', {
    schema: { summary: 'Crea contactos a partir de los chats de WhatsApp', response: { 200: SyncContactsResult, ...errors } },
    handler: (request) => contactsSync.sync(request.user.workspaceId),
  });
}
