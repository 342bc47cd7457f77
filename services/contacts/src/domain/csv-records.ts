import type { CsvColumn } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { columnFor, detectDelimiter, headerKey } from './csv-format.js';
import { csvRecords, LineTooLongError, parseRecord, splitLines } from './csv-lines.js';
import { decodeText } from './text-decoding.js';
import { vcardRecords } from './vcard.js';

export interface CsvRecord {
  line: number;
  values: Partial<Record<CsvColumn, string>>;
}

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
const LINE_TOO_LONG = (line: number) => `La línea ${line} es demasiado larga: ¿es un archivo CSV con una fila por contacto?`;

async function* guarded(lines: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    for (let item = await lines.next(); !item.done; item = await lines.next()) yield item.value;
  } catch (error) {
    if (error instanceof LineTooLongError) throw badRequest(LINE_TOO_LONG(error.line), 'CSV_LINE_TOO_LONG');
    throw error;
  }
}

/**
 * Turns an uploaded CSV stream into records keyed by column, with the line
 * each starts on. The header decides the delimiter and which columns exist;
 * nothing is buffered beyond the line being read.
 */
export async function readCsv(body: AsyncIterable<Buffer | string>, mapping: ColumnMapping = {}): Promise<CsvSource> {
  const lines = guarded(splitLines(decodeText(body))[Symbol.asyncIterator]());
  const first = await lines.next();
  const headerLine = first.done ? '' : first.value.replace(/^\uFEFF/, '');
  if (!headerLine.trim()) throw badRequest('El archivo CSV está vacío', 'CSV_EMPTY');
  if (/^BEGIN:VCARD\s*$/i.test(headerLine)) {
    return { delimiter: ',', records: vcardRecords({ [Symbol.asyncIterator]: () => lines }), unreadable: [], unmapped: [] };
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
