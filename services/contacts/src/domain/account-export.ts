import { jsonArrayPart, keysetPart, type AccountExportPart, type KeysetSource } from '@asistente/kit';
import { toContact } from './contact.js';
import { csvHead, csvRecord } from './contacts-exporter.js';
import type { AccountExportRepository, ExportedContact } from './account-export.repository.js';

/** Contacts read per page: about 1 MB of CSV. */
const PAGE_ROWS = 5000;

/**
 * The contacts' share of "Descargar mis datos": the CSV the contacts export writes (formula-safe, imports
 * back unchanged), every field as JSON, the contacts in the trash and the saved views.
 */
export function contactsExportParts(repository: AccountExportRepository): AccountExportPart[] {
  const source: KeysetSource<ExportedContact> = {
    rows: (userId, after, limit) => repository.contacts(userId, after, limit),
    key: (row) => `${row.at}|${row.id}`,
  };
  return [
    keysetPart('contactos.csv', source, { head: csvHead('csv'), body: (rows) => rows.map((row) => csvRecord(row, 'csv')).join(''), tail: '' }, PAGE_ROWS),
    jsonArrayPart('contactos.json', source, (row) => toContact(row), PAGE_ROWS),
    jsonArrayPart('papelera.json', { rows: (userId, after, limit) => repository.trash(userId, after, limit), key: (row) => `${row.batchId}|${row.id}` }, (row) => row, PAGE_ROWS),
    jsonArrayPart('vistas-guardadas.json', { rows: (userId, after, limit) => repository.views(userId, after, limit), key: (row) => row.id }, (row) => row),
  ];
}
