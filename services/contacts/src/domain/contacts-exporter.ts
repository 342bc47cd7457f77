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

/**
 * The user's contacts as CSV, streamed chunk by chunk. The header is one
 * import reads, tags are ';'-joined, and a BOM lets spreadsheet programs read
 * the accents as UTF-8: an export imports back unchanged. A cell a
 * spreadsheet would run as a formula is neutralised (OWASP CSV injection).
 */
export async function exportCsv(contacts: ContactsRepository, userId: string, selection: Selection, format: ContactExportFormat = 'csv'): Promise<Readable> {
  const { delimiter, header } = FORMATS[format];
  const chunks = contacts.cursor(userId, selection)[Symbol.asyncIterator]();
  const first = await chunks.next();
  const line = (r: ContactRow) =>
    csvLine([r.firstName, r.lastName, r.email ?? '', r.phone ?? '', r.company ?? '', r.tags.join(';')].map(neutralizeFormula), delimiter);
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine([...header], delimiter);
    for (let chunk = first; !chunk.done; chunk = await chunks.next()) yield chunk.value.map(line).join('');
  }
  return Readable.from(lines());
}
