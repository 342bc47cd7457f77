import {
  ErrorResponse,
  FileResponse,
  WidgetKeyParams,
  WidgetMessage,
  WidgetMessageBody,
  WidgetProfile,
  WidgetProfileBody,
  WidgetPublicConfig,
  WidgetThread,
  WidgetTokenQuery,
  WidgetVisitor,
} from '@asistente/contracts';
import { badRequest, type App, type EventBus, type LiveStreams } from '@asistente/kit';
import type { FastifyRequest } from 'fastify';
import type { ConversationsRepository } from '../domain/conversations.repository.js';
import type { EntriesRepository } from '../domain/entries.repository.js';
import { CONVERSATION_CHANGED, type ChangedSignal } from '../domain/live-signals.js';
import { toWidgetMessage, visitorHandle, type VisitorCall, type WidgetVisitors } from '../domain/widget/widget-visitors.js';
import type { WidgetRow } from '../domain/widget/widgets.repository.js';

const HEARTBEAT_MS = 20_000;
/** At most this many messages are read for a stream at a time (a burst beyond comes on the next signal). */
const STREAM_BATCH = 50;
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };
const PUBLIC = { public: true };


interface Deps {
  visitors: WidgetVisitors;
  conversations: ConversationsRepository;
  entries: EntriesRepository;
  bus: EventBus;
  streams: LiveStreams;
}

/**
 * What the widget on the owner's website calls: public (no session), bound to the widget's key, answered to
 * the origins the owner allowed. The widget posts its JSON as `text/plain` and sends no header of its own, so
 * a browser makes no preflight: every answer says which origin may read it, and a page the owner did not
 * allow is refused before anything is read or written.
 */
export async function widgetPublicRoutes(app: App, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(badRequest('El cuerpo de la petición no es un JSON válido', 'INVALID_JSON'));
      }
    });
    routes(scope as App, deps);
  });
}

function routes(app: App, { visitors, conversations, entries, bus, streams }: Deps): void {
  // Before the body is parsed or checked: a page not allowed is refused first, and an allowed page can read
  // every answer, a refused body's Spanish message included.
  const widgets = new WeakMap<FastifyRequest, WidgetRow>();
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const widget = await visitors.widget((request.params as Partial<WidgetKeyParams>).key ?? '', origin);
    if (origin) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    widgets.set(request, widget);
  });
  const widgetOf = (request: FastifyRequest): WidgetRow => widgets.get(request)!;
  const callOf = async (request: FastifyRequest, token: string): Promise<VisitorCall> => {
    const widget = widgetOf(request);
    return { widget, visitor: await visitors.visitor(widget, token) };
  };

  app.get('/widget/:key/config', {
    config: PUBLIC,
    schema: { summary: 'Chat web: nombre, color y saludo (lo pide el widget; público)', params: WidgetKeyParams, response: { 200: WidgetPublicConfig, ...errors } },
    handler: async (request) => visitors.config(widgetOf(request)),
  });

  app.post('/widget/:key/visitors', {
    config: PUBLIC,
    schema: { summary: 'Chat web: un visitante nuevo, con su identificador firmado (público)', params: WidgetKeyParams, response: { 201: WidgetVisitor, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await visitors.start(widgetOf(request), request.clientIp)),
  });

  app.get('/widget/:key/messages', {
    config: PUBLIC,
    schema: { summary: 'Chat web: los últimos mensajes del visitante y del negocio (público)', params: WidgetKeyParams, querystring: WidgetTokenQuery, response: { 200: WidgetThread, ...errors } },
    handler: async (request) => visitors.thread(await callOf(request, request.query.token)),
  });

  app.post('/widget/:key/messages', {
    config: PUBLIC,
    schema: { summary: 'Chat web: el visitante escribe al negocio; llega a la bandeja con canal web (público)', params: WidgetKeyParams, body: WidgetMessageBody, response: { 201: WidgetMessage, ...errors } },
    handler: async (request, reply) => {
      const call = await callOf(request, request.body.token);
      return reply.code(201).send(await visitors.write(call, request.body.text, request.clientIp));
    },
  });

  app.post('/widget/:key/profile', {
    config: PUBLIC,
    schema: { summary: 'Chat web: el visitante deja su nombre, correo o teléfono; se enlaza a un contacto (público)', params: WidgetKeyParams, body: WidgetProfileBody, response: { 200: WidgetProfile, ...errors } },
    handler: async (request) => {
      const { token, ...details } = request.body;
      return visitors.profile(await callOf(request, token), details, request.clientIp);
    },
  });

  app.get('/widget/:key/stream', {
    config: PUBLIC,
    schema: {
      summary: 'Chat web: los mensajes nuevos en directo (Server-Sent Events; público)',
      params: WidgetKeyParams,
      querystring: WidgetTokenQuery,
      response: { 200: FileResponse(['text/event-stream'], 'Un evento `ready` al abrir (vuelve a leer los mensajes) y un `message` por cada mensaje nuevo'), ...errors },
    },
    handler: async (request, reply) => {
      const { widget, visitor } = await callOf(request, request.query.token);
      const origin = request.headers.origin;
      if (origin) reply.raw.setHeader('access-control-allow-origin', origin);
      const stream = streams.open(request, reply, { id: visitor.id, workspaceId: widget.userId });
      const handle = visitorHandle(visitor.id);
      let conversationId = (await conversations.findByHandle(widget.userId, 'web', handle))?.id;
      let sentSeq = conversationId ? ((await entries.lastMessages(conversationId, 1))[0]?.seq ?? '0') : '0';
      // One read at a time, so two signals close together never send a message twice.
      let reading = Promise.resolve();
      const readNew = async () => {
        conversationId ??= (await conversations.findByHandle(widget.userId, 'web', handle))?.id;
        if (!conversationId || !stream.open) return;
        for (const entry of await entries.messagesAfter(conversationId, sentSeq, STREAM_BATCH)) {
          stream.send('message', toWidgetMessage(entry));
          sentSeq = entry.seq;
        }
      };
      stream.send('ready', {});
      const stop = bus.onSignal(CONVERSATION_CHANGED, (payload) => {
        const signal = JSON.parse(payload) as ChangedSignal;
        if (signal.workspaceId !== widget.userId || (conversationId && signal.conversationId !== conversationId)) return;
        reading = reading.then(readNew).catch((error: unknown) => request.log.warn({ err: error }, 'widget stream: could not read new messages'));
      });
      const heartbeat = setInterval(() => stream.comment('ping'), HEARTBEAT_MS);
      stream.onClose(() => {
        stop();
        clearInterval(heartbeat);
      });
    },
  });
}
