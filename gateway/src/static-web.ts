import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, type App } from '@asistente/kit';
import { API_PREFIX } from './routing-table.js';

/** The token lives in localStorage (spec), so scripts are locked to our own origin. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // https: for the images of a mail the owner chose to show (the mail service strips them until then).
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const WIDGET_SCRIPT = 'widget.js';
export const WIDGET_SCRIPT_MAX_AGE_S = 300;

type NotFound = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

const jsonNotFound: NotFound = (request, reply) =>
  reply.code(404).send(errorBody(404, 'NOT_FOUND', `Ruta no encontrada: ${request.method} ${request.url.split('?')[0]}`));

/**
 * Serves the built SPA from `root` and sets the 404 handler: index.html for
 * client routes (so a reload of /contacts works), the JSON 404 for API
 * paths, files and anything but GET.
 */
export async function serveWeb(app: App, root: string): Promise<void> {
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'web build not found: the API runs without the web app (run npm run build)');
    app.setNotFoundHandler(jsonNotFound);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    // A wildcard route looks files up per request, so a rebuilt web/dist is served without a restart.
    wildcard: true,
    index: ['index.html'],
    // Our setHeaders decides caching: hashed assets forever, HTML never, the widget briefly.
    cacheControl: false,
    setHeaders: (res, file) => {
      if (file.endsWith('.html')) {
        res.setHeader('content-security-policy', CSP);
        res.setHeader('cache-control', 'no-cache');
      }
      if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      // Owners paste widget.js's fixed address in their sites: visitors' browsers keep it a few minutes and then
      // ask again with its ETag, so a new version reaches every site within WIDGET_SCRIPT_MAX_AGE_S.
      if (file === path.join(root, WIDGET_SCRIPT)) res.setHeader('cache-control', `public, max-age=${WIDGET_SCRIPT_MAX_AGE_S}`);
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const page = request.method === 'GET' || request.method === 'HEAD';
    if (!page || url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || path.extname(url)) {
      return jsonNotFound(request, reply);
    }
    return reply.header('content-security-policy', CSP).header('cache-control', 'no-cache').sendFile('index.html');
  });
}
