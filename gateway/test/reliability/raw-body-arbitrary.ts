import fc from 'fast-check';
import { NASTY_STRINGS } from './schema-arbitrary.js';

/**
 * Uploads sent as they are (a CSV or vCard file), built to hurt the readers
 * behind them: bytes that are not UTF-8, NUL and control characters inside
 * fields, byte order marks, CR-only line ends, unbalanced quotes, vCards with
 * broken folding, and lines past every limit.
 */

/** Sequences no UTF-8 decoder accepts: a lone continuation, an overlong slash, a surrogate half, past U+10FFFF, truncated. */
const INVALID_UTF8 = [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xfe], [0xe2, 0x82], [0xf0, 0x9f, 0x92]];
/** UTF-8, UTF-16 LE and BE, and a UTF-8 mark written twice. */
const BOMS = [[0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]];
const LINE_ENDS = ['\n', '\r\n', '\r'];
const CSV_HEADERS = [
  ['firstName', 'lastName', 'email', 'phone', 'company', 'tags'],
  ['Nombre', 'Apellidos', 'Correo electrónico', 'Teléfono móvil', 'Empresa'],
  ['Given Name', 'Family Name', 'E-mail 1 - Value', 'Labels'],
];
const VCARD_PROPERTIES = ['N', 'FN', 'EMAIL', 'TEL', 'ORG', 'CATEGORIES', 'item1.EMAIL;TYPE=INTERNET', 'TEL;TYPE=CELL', 'VERSION', 'X-NOTA'];
/** Just past what the readers hold in one line (1,048,576 characters). */
const HUGE = 1_100_000;

const cell = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom('"', '"abierta', 'a""b', '"cerrada"resto', '=1+1', 'Pérez', 'a\u001fb', 'x;y', 'a\\,b', 'uno\ndos', 'BEGIN:VCARD', 'END:VCARD'),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.emailAddress(),
);

/** The text as UTF-8, its lone surrogates included as the bytes a careless encoder writes (ED A0 80…). */
function utf8(text: string): Buffer {
  if (!/[\ud800-\udfff]/.test(text)) return Buffer.from(text);
  const parts: Buffer[] = [];
  for (const ch of text) parts.push(/^[\ud800-\udfff]$/.test(ch) ? Buffer.from([0xed, 0xa0 | ((ch.charCodeAt(0) >> 6) & 0x0f), 0x80 | (ch.charCodeAt(0) & 0x3f)]) : Buffer.from(ch));
  return Buffer.concat(parts);
}

/**
 * A text file's bytes, in one case of four behind a byte order mark and in one of four with invalid UTF-8
 * spliced in anywhere: the rest reach the lines and fields behind the header.
 */
function asUpload(text: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  const none = fc.constant(undefined);
  const splice = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...INVALID_UTF8)), { minLength: 1, maxLength: 3 }) },
  );
  const bom = fc.oneof({ weight: 3, arbitrary: none }, { weight: 1, arbitrary: fc.constantFrom(...BOMS) });
  return fc.tuple(text, bom, splice).map(([content, mark, invalid]) => {
    let bytes = utf8(content);
    for (const [at, sequence] of invalid) {
      const i = Math.floor(at * bytes.length);
      bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from(sequence), bytes.subarray(i)]);
    }
    return mark ? Buffer.concat([Buffer.from(mark), bytes]) : bytes;
  });
}

const csvText = fc
  .record({
    header: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CSV_HEADERS) }, { weight: 1, arbitrary: fc.array(cell, { maxLength: 6 }) }),
    rows: fc.array(fc.array(cell, { maxLength: 7 }), { maxLength: 20 }),
    delimiter: fc.constantFrom(',', ';'),
    end: fc.constantFrom(...LINE_ENDS),
  })
  .map(({ header, rows, delimiter, end }) => [header, ...rows].map((cells) => cells.join(delimiter)).join(end) + end);

/** One vCard line: a property with a hostile value, a fold (a line starting with a space), or a stray line. */
const vcardLine = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...VCARD_PROPERTIES), cell).map(([name, value]) => `${name}:${value}`) },
  { weight: 2, arbitrary: cell.map((value) => ` ${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('BEGIN:VCARD', 'END:VCARD', 'begin:vcard', '\t', 'SIN DOS PUNTOS', ':', '') },
);

const vcardText = fc
  .record({
    cards: fc.array(fc.record({ lines: fc.array(vcardLine, { maxLength: 8 }), closed: fc.boolean() }), { minLength: 1, maxLength: 6 }),
    end: fc.constantFrom(...LINE_ENDS),
  })
  .map(({ cards, end }) => cards.flatMap(({ lines, closed }) => ['BEGIN:VCARD', ...lines, ...(closed ? ['END:VCARD'] : [])]).join(end) + end);

/** Files past the readers' limits: one endless line, an endless header, a fold that never ends, a quote that never closes. */
const hugeText = fc.record({ shape: fc.constantFrom('line', 'header', 'fold', 'quote'), fill: fc.constantFrom('x', '\0', 'ñ', '"', ' ') }).map(({ shape, fill }) => {
  const header = `${CSV_HEADERS[0]!.join(',')}\n`;
  switch (shape) {
    case 'line':
      return `${header}Ana,${fill.repeat(HUGE)}\n`;
    case 'header':
      return `firstName,lastName,${fill.repeat(HUGE)}\nAna,Ruiz\n`;
    case 'fold':
      return `BEGIN:VCARD\r\nN:Ruiz;Ana;;;\r\nX-NOTA:a\r\n${` ${fill.repeat(70)}\r\n`.repeat(Math.ceil(HUGE / 72))}END:VCARD\r\n`;
    default:
      // Lines of one cell each: the rows a runaway quote swallows are refused, not 100,000 contacts to write.
      return `${header}Ana,"${fill}${`\n${fill}`.repeat(100_000)}\n`;
  }
});

/** The kinds of raw upload, each sampled in equal share so a bounded run still sends every one. */
export const RAW_BODY_KINDS: Record<string, fc.Arbitrary<Buffer>> = {
  bytes: fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
  csv: asUpload(csvText),
  vcard: asUpload(vcardText),
  huge: asUpload(hugeText),
};
