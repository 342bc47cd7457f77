import type { Readable } from 'node:stream';
import { ErrorResponse, ImportPreview } from '@asistente/contracts';
import { badRequest, type App } from '@asistente/kit';
import { previewImport } from '../domain/import-preview.js';

/** The preview reads the header and a few rows: a client sends the file's start, and more is not read. */
const PREVIEW_MAX_BYTES = 1_048_576;

async function* firstBytes(body: AsyncIterable<Buffer | string>, limit: number): AsyncGenerator<Buffer | string> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    yield chunk;
    if (seen >= limit) return;
  }
}

/**
 * POST /contacts/import/preview: what the import would make of a file's
 * columns (detected headers, proposed mapping, unmapped columns, first rows),
 * with nothing written. Registered after importExportRoutes, whose CSV body
 * parser (a stream) it shares.
 */
export async function importPreviewRoutes(app: App): Promise<void> {
  app.post('/contacts/import/preview', {
    schema: { summary: 'Previsualiza las columnas de un CSV sin importarlo', response: { 200: ImportPreview, 400: ErrorResponse, 401: ErrorResponse, 413: ErrorResponse } },
    handler: async (request, reply) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Partial<Readable>).pipe !== 'function') {
        throw badRequest('Envía el archivo CSV como cuerpo de la petición con Content-Type: text/csv', 'CSV_REQUIRED');
      }
      const preview = await previewImport(firstBytes(body, PREVIEW_MAX_BYTES));
      // The rest of a large upload is not read: close rather than wait for it.
      if (!request.raw.complete) reply.header('connection', 'close');
      return preview;
    },
  });
}
