import { Readable } from 'node:stream';
import { CSV_COLUMNS } from '@asistente/contracts';
import type { ContactRow } from './contact.js';
import { csvLine, neutralizeFormula } from './csv-format.js';
import type { ContactsRepository, Selection } from './contacts.repository.js';

/**
 * The user's contacts as CSV, streamed chunk by chunk. The header is the one
 * import reads, tags are ';'-joined, and a BOM lets spreadsheet programs read
 * the accents as UTF-8: an export imports back unchanged. A cell a
 * spreadsheet would run as a formula is neutralised (OWASP CSV injection).
 */
export async function exportCsv(contacts: ContactsRepository, userId: string, selection: Selection): Promise<Readable> {
  const chunks = contacts.cursor(userId, selection)[Symbol.asyncIterator]();
  const first = await chunks.next();
  const line = (r: ContactRow) =>
    csvLine([r.firstName, r.lastName, r.email ?? '', r.phone ?? '', r.company ?? '', r.tags.join(';')].map(neutralizeFormula));
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine([...CSV_COLUMNS]);
    for (let chunk = first; !chunk.done; chunk = await chunks.next()) yield chunk.value.map(line).join('');
  }
  return Readable.from(lines());
}
