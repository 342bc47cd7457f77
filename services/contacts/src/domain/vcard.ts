import type { CsvRecord } from './csv-record.js';

/** vCard escapes (`\,` `\;` `\n`) undone. */
function unescape(value: string): string {
  return value.replace(/\\([,;\\nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits on `sep` not preceded by a backslash. */
function split(value: string, sep: ',' | ';'): string[] {
  return value.split(sep === ';' ? /(?<!\\);/ : /(?<!\\),/).map(unescape);
}

/**
 * vCard (.vcf, versions 2.1 to 4.0, as phones export them) -> the same
 * records a CSV gives: N (or FN) for the names, the first EMAIL and TEL, ORG,
 * CATEGORIES as tags. Folded lines are unfolded; each card is reported on the
 * line of its BEGIN. `lines` starts after the first BEGIN:VCARD line.
 */
export async function* vcardRecords(lines: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let lineNo = 1;
  let start = 1;
  let inCard = true;
  let last: string | undefined;
  const props: [string, string][] = [];

  function finish(): CsvRecord {
    const values: CsvRecord['values'] = {};
    const first = (name: string) => props.find(([key]) => key === name)?.[1];
    const n = first('N');
    if (n) {
      const [family = '', given = ''] = split(n, ';');
      if (given.trim()) values.firstName = given.trim();
      if (family.trim()) values.lastName = family.trim();
    }
    const fn = first('FN');
    if (fn && (!values.firstName || !values.lastName)) {
      const [given = '', ...rest] = unescape(fn).trim().split(/\s+/);
      values.firstName ??= given;
      if (rest.length) values.lastName ??= rest.join(' ');
    }
    const email = first('EMAIL');
    if (email) values.email = unescape(email).trim();
    const tel = first('TEL');
    if (tel) values.phone = unescape(tel).replace(/^tel:/i, '').trim();
    const org = first('ORG');
    if (org) values.company = split(org, ';')[0]!.trim();
    const categories = first('CATEGORIES');
    if (categories) values.tags = split(categories, ',').join(';');
    props.length = 0;
    return { line: start, values };
  }

  for await (const raw of lines) {
    lineNo++;
    if (/^[ \t]/.test(raw) && last !== undefined) {
      // A folded line continues the previous property.
      props[props.length - 1]![1] += raw.slice(1);
      continue;
    }
    const line = raw.trim();
    if (!line) continue;
    if (/^BEGIN:VCARD$/i.test(line)) {
      inCard = true;
      start = lineNo;
      props.length = 0;
      last = undefined;
      continue;
    }
    if (/^END:VCARD$/i.test(line)) {
      if (inCard) yield finish();
      inCard = false;
      last = undefined;
      continue;
    }
    if (!inCard) continue;
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    // `item1.EMAIL;TYPE=INTERNET:x` -> EMAIL
    const name = line.slice(0, colon).split(';')[0]!.replace(/^[^.]*\./, '').toUpperCase();
    props.push([name, line.slice(colon + 1)]);
    last = name;
  }
  if (inCard && props.length) yield finish();
}
