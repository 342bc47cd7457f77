import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import type { CsvColumn } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { columnFor, detectDelimiter } from './csv-format.js';
import { decodeText } from './text-decoding.js';

export interface CsvRecord {
  line: number;
  values: Partial<Record<CsvColumn, string>>;
}

export interface CsvSource {
  delimiter: ',' | ';';
  records: AsyncIterable<CsvRecord>;
  /** Lines the parser could not read (an unclosed quote…), filled while `records` is consumed. */
  unreadable: { line: number; message: string }[];
}

const HEADER_REQUIRED =
  'El archivo CSV necesita una fila de cabecera con al menos las columnas firstName y lastName (o nombre y apellido)';

/**
 * Turns an uploaded CSV stream into records keyed by column, with the line
 * each ends on. The header decides the delimiter and which columns exist;
 * nothing is buffered beyond the header line.
 */
export async function readCsv(body: AsyncIterable<Buffer | string>): Promise<CsvSource> {
  const text = decodeText(body)[Symbol.asyncIterator]();
  let head = '';
  let next = await text.next();
  while (!next.done) {
    head += next.value;
    if (/\r?\n/.test(head) || head.length > 64 * 1024) break;
    next = await text.next();
  }
  const headerLine = head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  if (!headerLine.trim()) throw badRequest('El archivo CSV está vacío', 'CSV_EMPTY');
  const delimiter = detectDelimiter(headerLine);

  async function* rest(): AsyncGenerator<string> {
    yield head;
    if (next.done) return;
    for (let item = await text.next(); !item.done; item = await text.next()) yield item.value;
  }

  const unreadable: CsvSource['unreadable'] = [];
  const parser = Readable.from(rest()).pipe(
    parse({
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
    }),
  );
  parser.on('skip', (error: CsvError) => {
    unreadable.push({ line: Number(error.lines ?? 0), message: 'Línea ilegible: revisa las comillas' });
  });

  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const first = await iterator.next();
  const columns = first.done ? [] : first.value.record.map(columnFor);
  if (!columns.includes('firstName') || !columns.includes('lastName')) {
    parser.destroy();
    throw badRequest(HEADER_REQUIRED, 'CSV_HEADER');
  }

  async function* records(): AsyncGenerator<CsvRecord> {
    for (let item = await iterator.next(); !item.done; item = await iterator.next()) {
      const { record, info } = item.value;
      const values: CsvRecord['values'] = {};
      columns.forEach((column, i) => {
        const cell = record[i];
        if (column && cell !== undefined) values[column] = cell;
      });
      yield { line: info.lines, values };
    }
  }

  return { delimiter, records: records(), unreadable };
}
