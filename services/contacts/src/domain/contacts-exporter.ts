import { Readable } from 'node:stream';
import { CSV_COLUMNS } from '@asistente/contracts';
import { csvLine } from './csv-format.js';
import type { ContactsRepository, ListFilter } from './contacts.repository.js';

/**
 * The user's contacts as CSV, streamed chunk by chunk. The header is the one
 * import reads, tags are ';'-joined, and a BOM lets spreadsheet programs read
 * the accents as UTF-8: an export imports back unchanged.
 */
export function exportCsv(contacts: ContactsRepository, userId: string, filter: ListFilter): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine([...CSV_COLUMNS]);
    for await (const rows of contacts.cursor(userId, filter)) {
      yield rows
        .map((r) => csvLine([r.firstName, r.lastName, r.email ?? '', r.phone ?? '', r.company ?? '', r.tags.join(';')]))
        .join('');
    }
  }
  return Readable.from(lines());
}
