import type { CsvColumn } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { columnFor, detectDelimiter, headerKey } from './csv-format.js';
import { csvRecords, parseRecord } from './csv-lines.js';
import { uploadLines } from './upload-lines.js';
import { vcardRecords } from './vcard.js';
import type { CsvRecord } from './csv-record.js';

export interface CsvSource {
  delimiter: ',' | ';';
  records: AsyncIterable<CsvRecord>;
  /** Lines that could not be read (an unclosed quote), filled while `records` is consumed. */
  unreadable: { line: number; message: string }[];
  /** Header cells that go to no field: listed in the report, never dropped in silence. */
  unmapped: string[];
}

/** Header (as written, or compared like headerKey) -> field, or '' to leave the column out on purpose. */
export type ColumnMapping = Record<string, CsvColumn | ''>;

const HEADER_REQUIRED =
  'El archivo CSV necesita una fila de cabecera con al menos las columnas firstName y lastName (o nombre y apellido), o una asignación de columnas que las indique';

/**
 * Turns an uploaded CSV stream into records keyed by column, with the line
 * each starts on. The header decides the delimiter and which columns exist;
 * nothing is buffered beyond the line being read.
 */
export async function readCsv(body: AsyncIterable<Buffer | string>, mapping: ColumnMapping = {}): Promise<CsvSource> {
  const { header: headerLine, rest: lines } = await uploadLines(body);
  if (/^BEGIN:VCARD\s*$/i.test(headerLine)) {
    return { delimiter: ',', records: vcardRecords(lines), unreadable: [], unmapped: [] };
  }
  const delimiter = detectDelimiter(headerLine);
  const headers = parseRecord(headerLine, delimiter) ?? [];
  const byKey = new Map(Object.entries(mapping).map(([header, column]) => [headerKey(header), column]));
  const columns = headers.map((header) => {
    const chosen = mapping[header] ?? byKey.get(headerKey(header));
    return chosen === undefined ? columnFor(header) : chosen || undefined;
  });
  if (!columns.includes('firstName') || !columns.includes('lastName')) {
    await lines.return(undefined);
    throw badRequest(HEADER_REQUIRED, 'CSV_HEADER');
  }
  const unmapped = headers.filter((header, i) => !columns[i] && header.trim() !== '' && mapping[header] !== '' && byKey.get(headerKey(header)) !== '');

  const unreadable: CsvSource['unreadable'] = [];
  async function* records(): AsyncGenerator<CsvRecord> {
    for await (const event of csvRecords(lines, delimiter, 2)) {
      if (!event.ok) {
        unreadable.push({ line: event.line, message: 'Comillas sin cerrar: la línea se ha ignorado' });
        continue;
      }
      const values: CsvRecord['values'] = {};
      columns.forEach((column, i) => {
        const cell = event.record.cells[i];
        // Several columns may give one field (Outlook's mobile and business phones): the first non-empty wins.
        if (column && cell !== undefined && !values[column]?.trim()) values[column] = cell;
      });
      yield { line: event.record.line, values };
    }
  }

  return { delimiter, records: records(), unreadable, unmapped };
}
