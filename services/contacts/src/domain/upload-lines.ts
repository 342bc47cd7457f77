import { badRequest } from '@asistente/kit';
import { LineTooLongError, splitLines } from './csv-lines.js';
import { decodeText } from './text-decoding.js';

const LINE_TOO_LONG = (line: number) => `La línea ${line} es demasiado larga: ¿es un archivo CSV con una fila por contacto?`;
const NOT_TEXT = 'El archivo no es un CSV ni una vCard de texto (¿una hoja de Excel, un PDF?): guárdalo como CSV (UTF-8) o vCard y vuelve a intentarlo';

export interface UploadLines {
  /** The first line, without a byte order mark: a CSV header or a vCard's BEGIN. */
  header: string;
  /** The lines after it, read as they are consumed. */
  rest: AsyncGenerator<string>;
}

async function* guarded(lines: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    for (let item = await lines.next(); !item.done; item = await lines.next()) yield item.value;
  } catch (error) {
    if (error instanceof LineTooLongError) throw badRequest(LINE_TOO_LONG(error.line), 'CSV_LINE_TOO_LONG');
    throw error;
  } finally {
    await lines.return?.(undefined);
  }
}

/**
 * An upload (import or preview) as lines of text, its first line checked: an
 * empty file, a line past the limit or a file that is not text at all is a
 * 400. A NUL in the first line is what a spreadsheet, a PDF or UTF-16 text
 * looks like read as CSV; one further down is that line's problem alone.
 */
export async function uploadLines(body: AsyncIterable<Buffer | string>): Promise<UploadLines> {
  const rest = guarded(splitLines(decodeText(body))[Symbol.asyncIterator]());
  const first = await rest.next();
  const header = first.done ? '' : first.value.replace(/^\uFEFF/, '');
  const refusal = !header.trim() ? badRequest('El archivo CSV está vacío', 'CSV_EMPTY') : header.includes('\0') ? badRequest(NOT_TEXT, 'IMPORT_NOT_TEXT') : undefined;
  if (refusal) {
    await rest.return(undefined);
    throw refusal;
  }
  return { header, rest };
}
