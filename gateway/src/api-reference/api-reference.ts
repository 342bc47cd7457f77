import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorBody, type App } from '@asistente/kit';
import { API_PREFIX } from '../routing-table.js';
import { CSP } from '../static-web.js';
import { openApiOptions } from './openapi-options.js';
import { SPANISH_PAGE_TITLE, spanishLabelsScript } from './swagger-ui-spanish.js';

/**
 * Where the build writes the document the distributed gateway serves: gateway/dist/openapi.json, from
 * the source (gateway/src/api-reference) and from the build (gateway/dist/api-reference) alike.
 */
export const BUILT_DOCUMENT = fileURLToPath(new URL('../../dist/openapi.json', import.meta.url));

export const DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = `${API_PREFIX}/docs`;

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The document's source: collected from the routes this process registers (embedded: every service
 * plugin runs here), or the document the build collected that way (distributed: this gateway only
 * proxies, so it has no route schemas to read).
 */
export type ReferenceSource = { collect: true } | { file: string };

/**
 * The API reference: @fastify/swagger before any route (it collects them as they register), the
 * document at /api/openapi.json and swagger-ui at /api/docs (its assets below it), both public: no
 * service owns their paths, so the edge's token gate lets them through. The UI's scripts are files of
 * its own, so the page runs under the same same-origin CSP as the SPA.
 */
export async function registerApiReference(app: App, source: ReferenceSource): Promise<void> {
  if ('file' in source && !existsSync(source.file)) {
    app.log.warn({ file: source.file }, 'API reference not built: /api/openapi.json and /api/docs answer 503 (run npm run build)');
    const unavailable = errorBody(503, 'API_REFERENCE_NOT_BUILT', 'La referencia de la API no está generada: ejecuta npm run build.');
    for (const url of [DOCUMENT_PATH, DOCS_PATH, `${DOCS_PATH}/*`]) {
      app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.code(503).send(unavailable));
    }
    return;
  }
  await app.register(
    swagger,
    'file' in source
      ? { mode: 'static', specification: { path: source.file, baseDir: path.dirname(source.file) } }
      : openApiOptions(version),
  );
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { deepLinking: true, docExpansion: 'none', persistAuthorization: false },
    // The SPA's policy: swagger-ui's own would upgrade requests to https, which a plain-http deployment lacks.
    staticCSP: CSP,
    theme: { title: SPANISH_PAGE_TITLE, js: [{ filename: 'etiquetas-es.js', content: spanishLabelsScript() }] },
  });
  app.get(DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());
}
