import { Readable } from 'node:stream';
import { CSV_COLUMNS, type ContactExportFormat } from '@asistente/contracts';
import type { ContactRow } from './contact.js';
import { csvLine, neutralizeFormula } from './csv-format.js';
import type { ContactsRepository, Selection } from './contacts.repository.js';

/**
 * The header row and delimiter of each format. `csv` is the round-trip format
 * of the CLI (field names, ','); `excel` is what Spanish Excel opens in
 * columns: ';' (its list separator) and the contact form's Spanish labels,
 * which import recognises too.
 */
const FORMATS: Record<ContactExportFormat, { delimiter: ',' | ';'; header: readonly string[] }> = {
  csv: { delimiter: ',', header: CSV_COLUMNS },
  excel: { delimiter: ';', header: ['Nombre', 'Apellido', 'Correo electrónico', 'Teléfono', 'Empresa', 'Etiquetas'] },
};

/** The BOM and the header row of a `format` file. */
export function csvHead(format: ContactExportFormat): string {
  const { delimiter, header } = FORMATS[format];
  return '\uFEFF' + csvLine([...header], delimiter);
}

/** One contact as a line of a `format` file, every cell formula-safe. */
export function csvRecord(r: Pick<ContactRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'company' | 'tags'>, format: ContactExportFormat): string {
  return csvLine([r.firstName, r.lastName, r.email ?? '', r.phone ?? '', r.company ?? '', r.tags.join(';')].map(neutralizeFormula), FORMATS[format].delimiter);
}

/**
 * The user's contacts as CSV, streamed chunk by chunk. The header is one
 * import reads, tags are ';'-joined, and a BOM lets spreadsheet programs read
 * the accents as UTF-8: an export imports back unchanged. A cell a
 * spreadsheet would run as a formula is neutralised (OWASP CSV injection).
 */
export async function exportCsv(contacts: ContactsRepository, userId: string, selection: Selection, format: ContactExportFormat = 'csv'): Promise<Readable> {
  const chunks = contacts.cursor(userId, selection)[Symbol.asyncIterator]();
  const first = await chunks.next();
  async function* lines(): AsyncGenerator<string> {
    yield csvHead(format);
    for (let chunk = first; !chunk.done; chunk = await chunks.next()) yield chunk.value.map((row) => csvRecord(row, format)).join('');
  }
  return Readable.from(lines());
}
