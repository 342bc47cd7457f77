import { CSV_COLUMNS, CSV_SPANISH_HEADERS, type CsvColumn } from '@asistente/contracts';

// The CSV writing rules (formula neutralising, quoting) live in the kit: the account export writes CSV too.
export { csvCell, csvLine, neutralizeFormula } from '@asistente/kit';

/**
 * Headers of the files people actually have, as headerKey() spells them:
 * Google Contacts (`Given Name`, `E-mail 1 - Value`, `Labels`…), Outlook
 * (`First Name`, `E-mail Address`, `Mobile Phone`…) and Spanish variants.
 * When several columns give one field, the first non-empty cell wins.
 */
const HEADER_ALIASES: Record<string, CsvColumn> = {
  givenname: 'firstName',
  first: 'firstName',
  nombrepila: 'firstName',
  familyname: 'lastName',
  last: 'lastName',
  surname: 'lastName',
  apellidos: 'lastName',
  primerapellido: 'lastName',
  mail: 'email',
  emailaddress: 'email',
  email1value: 'email',
  email2value: 'email',
  email2address: 'email',
  correoelectronico: 'email',
  email1: 'email',
  phone1value: 'phone',
  phone2value: 'phone',
  mobilephone: 'phone',
  mobile: 'phone',
  businessphone: 'phone',
  homephone: 'phone',
  primaryphone: 'phone',
  telefonomovil: 'phone',
  movil: 'phone',
  celular: 'phone',
  tel: 'phone',
  organization1name: 'company',
  organizationname: 'company',
  organization: 'company',
  organizacion: 'company',
  compania: 'company',
  labels: 'tags',
  groupmembership: 'tags',
  categories: 'tags',
  categorias: 'tags',
};

/** A header compared without case, accents, spaces or punctuation ("Teléfono", "first_name", "E-mail 1 - Value"). */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Header cell -> column (CSV_COLUMNS, the Spanish headers, or a header of Google, Outlook or a Spanish export). */
export function columnFor(header: string): CsvColumn | undefined {
  const key = headerKey(header);
  return CSV_COLUMNS.find((c) => c.toLowerCase() === key) ?? CSV_SPANISH_HEADERS[key] ?? HEADER_ALIASES[key];
}

/** The delimiter of a header line: Spanish spreadsheets often save with ';'. */
export function detectDelimiter(headerLine: string): ',' | ';' {
  const commas = headerLine.split(',').length;
  const semicolons = headerLine.split(';').length;
  return semicolons > commas ? ';' : ',';
}

/**
 * Tags inside one cell: ';' (or '|') separated whatever the file's delimiter,
 * as the import dialog says (a ';' file quotes the cell: "cliente;proveedor");
 * ',' too when the file itself is ';'-delimited, as Spanish Excel users type them.
 */
export function splitTags(cell: string, delimiter: ',' | ';'): string[] {
  // Google joins labels with ' ::: ' and marks its own with '*' (`* myContacts`, `* starred`).
  return cell
    .split(/\s*:::\s*/)
    .flatMap((part) => part.split(delimiter === ',' ? /[;|]/ : /[;,|]/))
    .filter((tag) => !tag.trim().startsWith('*'));
}

/** Undoes neutralizeFormula: an export imports back unchanged. */
export function restoreFormula(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}
