/** A quoted cell may span lines (notes exported by Google do); one spanning more than this is an unclosed quote. */
export const MAX_LINES_PER_RECORD = 50;
/** A record longer than this is an unclosed quote too, or not a contact. */
export const MAX_RECORD_CHARS = 64 * 1024;

export interface RawRecord {
  /** The physical line the record starts on (1-based, the header is line 1). */
  line: number;
  cells: string[];
}

export type RecordEvent = { ok: true; record: RawRecord } | { ok: false; line: number };

/**
 * Cells of one record, or undefined when the text ends inside a quoted cell.
 * RFC 4180 quoting; a quote inside an unquoted cell is a literal character
 * (`5" pulgadas`), as spreadsheets write it.
 */
export function parseRecord(text: string, delimiter: string): string[] | undefined {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close === -1) return undefined;
        cell += text.slice(i, close);
        if (text[close + 1] === '"') {
          cell += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      // Anything between the closing quote and the delimiter is kept as written.
      const end = text.indexOf(delimiter, i);
      cell += end === -1 ? text.slice(i) : text.slice(i, end);
      cells.push(cell);
      if (end === -1) return cells;
      i = end + 1;
    } else {
      const end = text.indexOf(delimiter, i);
      if (end === -1) {
        cells.push(text.slice(i));
        return cells;
      }
      cells.push(text.slice(i, end));
      i = end + 1;
    }
  }
}

/**
 * Physical lines -> records. A record whose quote is still open after
 * MAX_LINES_PER_RECORD lines (or MAX_RECORD_CHARS, or at the end of the file)
 * is reported on the line it starts, and reading resumes on the next line:
 * one stray quote costs one line, not the rest of the file. Blank lines are
 * skipped.
 */
export async function* csvRecords(lines: AsyncIterable<string>, delimiter: string, firstLine = 1): AsyncGenerator<RecordEvent> {
  let pending: { line: number; lines: string[]; chars: number } | undefined;
  let lineNo = firstLine - 1;

  /** Tries the pending lines as one record; on an unclosed quote that cannot close, reports and re-reads what followed. */
  function* settle(atEnd: boolean): Generator<RecordEvent> {
    while (pending) {
      const cells = parseRecord(pending.lines.join('\n'), delimiter);
      if (cells) {
        const record = { line: pending.line, cells };
        pending = undefined;
        if (cells.length > 1 || cells[0]!.trim() !== '') yield { ok: true, record };
        return;
      }
      if (!atEnd && pending.lines.length < MAX_LINES_PER_RECORD && pending.chars < MAX_RECORD_CHARS) return;
      yield { ok: false, line: pending.line };
      const rest = pending.lines.slice(1);
      const restStart = pending.line + 1;
      pending = undefined;
      for (const [offset, text] of rest.entries()) yield* push(restStart + offset, text, false);
      if (!atEnd) return;
    }
  }

  function* push(line: number, text: string, atEnd: boolean): Generator<RecordEvent> {
    if (pending) {
      pending.lines.push(text);
      pending.chars += text.length;
    } else {
      pending = { line, lines: [text], chars: text.length };
    }
    yield* settle(atEnd);
  }

  for await (const text of lines) {
    lineNo++;
    yield* push(lineNo, text, false);
  }
  yield* settle(true);
}

export class LineTooLongError extends Error {
  constructor(readonly line: number) {
    super(`line ${line} is too long`);
  }
}

/** Text chunks -> physical lines (\n or \r\n), holding at most one line of at most `maxChars`. */
export async function* splitLines(chunks: AsyncIterable<string>, maxChars = MAX_RECORD_CHARS * 16): AsyncGenerator<string> {
  let rest = '';
  let lineNo = 0;
  for await (const chunk of chunks) {
    rest += chunk;
    let start = 0;
    for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n', start)) {
      const end = nl > start && rest[nl - 1] === '\r' ? nl - 1 : nl;
      lineNo++;
      yield rest.slice(start, end);
      start = nl + 1;
    }
    rest = rest.slice(start);
    if (rest.length > maxChars) throw new LineTooLongError(lineNo + 1);
  }
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
