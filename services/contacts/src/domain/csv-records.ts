import type { CsvColumn } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { columnFor, detectDelimiter } from './csv-format.js';
import { csvRecords, LineTooLongError, parseRecord, splitLines } from './csv-lines.js';
import { decodeText } from './text-decoding.js';

export interface CsvRecord {
  line: number;
  values: Partial<Record<CsvColumn, string>>;
}

export interface CsvSource {
  delimiter: ',' | ';';
  records: AsyncIterable<CsvRecord>;
  /** Lines that could not be read (an unclosed quote), filled while `records` is consumed. */
  unreadable: { line: number; message: string }[];
}

const HEADER_REQUIRED =
  'El archivo CSV necesita una fila de cabecera con al menos las columnas firstName y lastName (o nombre y apellido)';
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
export async function readCsv(body: AsyncIterable<Buffer | string>): Promise<CsvSource> {
  const lines = guarded(splitLines(decodeText(body))[Symbol.asyncIterator]());
  const first = await lines.next();
  const headerLine = first.done ? '' : first.value.replace(/^\uFEFF/, '');
  if (!headerLine.trim()) throw badRequest('El archivo CSV está vacío', 'CSV_EMPTY');
  const delimiter = detectDelimiter(headerLine);
  const columns = (parseRecord(headerLine, delimiter) ?? []).map(columnFor);
  if (!columns.includes('firstName') || !columns.includes('lastName')) {
    await lines.return(undefined);
    throw badRequest(HEADER_REQUIRED, 'CSV_HEADER');
  }

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
        if (column && cell !== undefined) values[column] = cell;
      });
      yield { line: event.record.line, values };
    }
  }

  return { delimiter, records: records(), unreadable };
}
