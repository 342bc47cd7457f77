import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { BulkDeleteBody, CSV_COLUMNS, ContactExportFormat, ErrorResponse, FileResponse, ImportQuery, ImportReport } from '@asistente/contracts';
import type { FastifyReply } from 'fastify';
import { AppError, badRequest, notFound, type App } from '@asistente/kit';
import { exportCsv } from '../domain/contacts-exporter.js';
import type { ContactsImporter } from '../domain/contacts-importer.js';
import type { ColumnMapping } from '../domain/csv-records.js';
import type { ContactsRepository } from '../domain/contacts.repository.js';

const CSV_TYPES = ['text/vcard', 'text/x-vcard', 'text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'];

export interface ImportExportDeps {
  importer: ContactsImporter;
  repository: ContactsRepository;
  /** Largest upload accepted, in bytes (CONTACTS_IMPORT_MAX_BYTES). */
  maxUploadBytes: number;
}

function tooLarge(limit: number): AppError {
  const mib = Math.floor(limit / 1_048_576);
  const size = mib >= 1 ? `${mib} MB` : `${Math.floor(limit / 1024)} KB`;
  return new AppError(413, 'UPLOAD_TOO_LARGE', `El archivo supera el máximo de ${size} por importación: divídelo en varios archivos`);
}

/** The upload's bytes, refused with a 413 as soon as they pass the limit: nothing past it is read or parsed. */
async function* bounded(body: AsyncIterable<Buffer | string>, limit: number): AsyncGenerator<Buffer | string> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > limit) throw tooLarge(limit);
    yield chunk;
  }
}

function sendCsv(reply: FastifyReply, csv: Readable, format: ContactExportFormat) {
  const stamp = new Date().toISOString().slice(0, 10);
  const name = format === 'excel' ? `contactos-excel-${stamp}.csv` : `contactos-${stamp}.csv`;
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(csv);
}

/** `?format=excel`: the file Spanish Excel opens in columns (both export routes take it). */
const FormatQuery = Type.Object({ format: Type.Optional(ContactExportFormat) });

const CsvFile = FileResponse(['text/csv'], 'El archivo CSV de los contactos (con `format=excel`, el que Excel en español abre en columnas)');

const MAPPING_INVALID = `La asignación de columnas debe ser un objeto JSON {"cabecera": "campo"} con campos ${CSV_COLUMNS.join(', ')} o "" para ignorar`;

/** The `map` query parameter: header -> field, validated before a byte of the upload is read. */
function parseMapping(raw: string | undefined): ColumnMapping {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(MAPPING_INVALID, 'IMPORT_MAPPING');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(MAPPING_INVALID, 'IMPORT_MAPPING');
  const fields: readonly string[] = CSV_COLUMNS;
  for (const value of Object.values(parsed)) {
    if (typeof value !== 'string' || (value !== '' && !fields.includes(value))) throw badRequest(MAPPING_INVALID, 'IMPORT_MAPPING');
  }
  return parsed as ColumnMapping;
}

/** Text a query may carry: no control characters (PostgreSQL refuses NUL, and none belongs in a search). */
const QueryText = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000-\\u001f\\u007f]*$' });

export async function importExportRoutes(app: App, { importer, repository, maxUploadBytes }: ImportExportDeps): Promise<void> {
  // The upload reaches the handler as a stream: a 1M-row file is never buffered.
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));

  app.post('/contacts/import', {
    schema: { summary: 'Importa contactos desde un CSV (cuerpo text/csv)', querystring: ImportQuery, response: { 200: ImportReport, 400: ErrorResponse, 401: ErrorResponse, 413: ErrorResponse } },
    handler: async (request, reply) => {
      try {
        const declared = Number(request.headers['content-length']);
        if (declared > maxUploadBytes) throw tooLarge(maxUploadBytes);
        const body = request.body as Readable | undefined;
        if (!body || typeof (body as Partial<Readable>).pipe !== 'function') {
          throw badRequest('Envía el archivo CSV como cuerpo de la petición con Content-Type: text/csv', 'CSV_REQUIRED');
        }
        const mapping = parseMapping(request.query.map);
        return await importer.import(request.user.workspaceId, bounded(body, maxUploadBytes), request.query.dryRun, mapping);
      } catch (error) {
        // Refused before the whole upload was read: the client is still sending
        // it. Closing the connection after the answer, rather than keeping it
        // alive, lets the client see the answer at once instead of waiting
        // for a server that no longer reads.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
    },
  });

  app.get('/contacts/export', {
    schema: { summary: 'Exporta los contactos en CSV',
      querystring: Type.Object({
        search: Type.Optional(QueryText(100)),
        tag: Type.Optional(QueryText(50)),
        format: Type.Optional(ContactExportFormat),
      }),
      response: { 200: CsvFile, 400: ErrorResponse, 401: ErrorResponse },
    },
    handler: async (request, reply) => {
      const { format = 'csv', ...filter } = request.query;
      // The first rows are read before the answer starts: a failing query is an error answer, not a cut stream.
      return sendCsv(reply, await exportCsv(repository, request.user.workspaceId, { filter }, format), format);
    },
  });

  // The contacts picked in the list (or every one matching a filter), as the same CSV.
  app.post('/contacts/export', {
    schema: { summary: 'Exporta en CSV los contactos elegidos', body: BulkDeleteBody, querystring: FormatQuery, response: { 200: CsvFile, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse } },
    handler: async (request, reply) => {
      const { selection } = request.body;
      const format = request.query.format ?? 'csv';
      if (selection.ids && (await repository.countOwned(request.user.workspaceId, selection.ids)) !== new Set(selection.ids).size) {
        throw notFound('Alguno de los contactos no existe');
      }
      return sendCsv(reply, await exportCsv(repository, request.user.workspaceId, selection, format), format);
    },
  });
}
