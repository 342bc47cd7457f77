import { CSV_COLUMNS, CSV_SPANISH_HEADERS, type CsvColumn } from '@asistente/contracts';

/** Header cell -> column, ignoring case, accents, spaces and punctuation ("Teléfono", "first_name"). */
export function columnFor(header: string): CsvColumn | undefined {
  const key = header
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return CSV_COLUMNS.find((c) => c.toLowerCase() === key) ?? CSV_SPANISH_HEADERS[key];
}

/** The delimiter of a header line: Spanish spreadsheets often save with ';'. */
export function detectDelimiter(headerLine: string): ',' | ';' {
  const commas = headerLine.split(',').length;
  const semicolons = headerLine.split(';').length;
  return semicolons > commas ? ';' : ',';
}

/** Tags inside one cell: ';' (or '|') separated; ',' too when the file itself is ';'-delimited. */
export function splitTags(cell: string, delimiter: ',' | ';'): string[] {
  return cell.split(delimiter === ',' ? /[;|]/ : /[,|]/);
}

/**
 * A cell starting with = + - @ (or a tab/CR that some programs skip) runs as a
 * formula when a spreadsheet opens the file: a leading apostrophe makes it
 * text, as OWASP recommends. Import strips that apostrophe again.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Undoes neutralizeFormula: an export imports back unchanged. */
export function restoreFormula(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

export function csvCell(value: string): string {
  return /[",\r\n;]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(values: string[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}
