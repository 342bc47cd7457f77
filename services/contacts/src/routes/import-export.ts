import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, ImportQuery, ImportReport } from '@asistente/contracts';
import { badRequest, type App } from '@asistente/kit';
import { exportCsv } from '../domain/contacts-exporter.js';
import type { ContactsImporter } from '../domain/contacts-importer.js';
import type { ContactsRepository } from '../domain/contacts.repository.js';

const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'];

export interface ImportExportDeps {
  importer: ContactsImporter;
  repository: ContactsRepository;
}

export async function importExportRoutes(app: App, { importer, repository }: ImportExportDeps): Promise<void> {
  // The upload reaches the handler as a stream: a 1M-row file is never buffered.
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));

  app.post('/contacts/import', {
    schema: { querystring: ImportQuery, response: { 200: ImportReport, 400: ErrorResponse, 401: ErrorResponse } },
    handler: async (request) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Partial<Readable>).pipe !== 'function') {
        throw badRequest('Envía el archivo CSV como cuerpo de la petición con Content-Type: text/csv', 'CSV_REQUIRED');
      }
      return importer.import(request.user.id, body, request.query.dryRun);
    },
  });

  app.get('/contacts/export', {
    schema: {
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 100 })),
        tag: Type.Optional(Type.String({ maxLength: 50 })),
      }),
    },
    handler: async (request, reply) => {
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="contactos-${stamp}.csv"`)
        .send(exportCsv(repository, request.user.id, request.query));
    },
  });
}
