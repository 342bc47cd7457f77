/** A phone number as people write it: '+', then digits, spaces, dots, dashes and brackets only. */
const PHONE = /^\+[\d\s().-]*\d[\d\s().-]*$/;

/**
 * A cell starting with = + - @ (or a tab/CR that some programs skip) runs as a
 * formula when a spreadsheet opens the file: a leading apostrophe makes it
 * text, as OWASP recommends. Import strips that apostrophe again. A phone
 * number (`+34 622 111 222`) is data, not a formula, and stays as written:
 * '+' followed by anything else (`+cmd|' /C calc'!A0`) is neutralised.
 */
export function neutralizeFormula(value: string): string {
  if (PHONE.test(value)) return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvCell(value: string): string {
  return /[",\r\n;]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(values: string[], delimiter: ',' | ';' = ','): string {
  return values.map(csvCell).join(delimiter) + '\r\n';
}
