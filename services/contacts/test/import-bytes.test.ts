import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';
import { decodeText } from '../src/domain/text-decoding.js';

// Raw upload bytes are input too: what PostgreSQL cannot store is a line's error or a 400, never a 500.
const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;
const HEADER = 'firstName,lastName,email,phone,company,tags\n';
const INVALID = 'Contiene caracteres no válidos (caracteres de control)';

function upload(authorization: string, url: string, body: string | Buffer, type = 'text/csv') {
  return app.inject({ method: 'POST', url, headers: { authorization, 'content-type': type }, payload: body });
}

async function stored(userId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`select first_name || ' ' || last_name as name from contacts.contacts where user_id = ${userId} order by 1`;
  return rows.map((r) => r.name);
}

t.test('a NUL or a control character inside a CSV field refuses that line alone, with its number', async (t) => {
  const me = signToken(app);
  const file = HEADER + 'Ana,Ruiz,ana@x.es,,,\n' + 'Be\0a,Sol,bea@x.es,,,\n' + 'Carla,Gil,,,Em\u0001presa,\n' + 'Dani,Paz,,,,vip\u001fadmin\n' + 'Eva,Luz,,,,\n';
  const dry = await upload(me.authorization, '/contacts/import?dryRun=true', file);
  const expected = { created: 2, updated: 0, skipped: 0, errors: [3, 4, 5].map((line) => ({ line, message: INVALID })) };
  t.same(dry.json(), expected, 'the check finds them');
  t.same(await stored(me.userId), [], 'a dry run writes nothing');
  const res = await upload(me.authorization, '/contacts/import', file);
  t.equal(res.statusCode, 200);
  t.same(res.json(), expected);
  t.same(await stored(me.userId), ['Ana Ruiz', 'Eva Luz'], 'only the clean lines are stored');
});

t.test('a NUL inside a vCard refuses that card, on the line of its BEGIN', async (t) => {
  const me = signToken(app);
  const vcf = ['BEGIN:VCARD', 'N:Ruiz;Ana;;;', 'END:VCARD', 'BEGIN:VCARD', 'N:Sol;Be\0a;;;', 'EMAIL:bea@x.es', 'END:VCARD', ''].join('\r\n');
  const res = await upload(me.authorization, '/contacts/import', vcf, 'text/vcard');
  t.same(res.json(), { created: 1, updated: 0, skipped: 0, errors: [{ line: 4, message: INVALID }] });
  t.same(await stored(me.userId), ['Ana Ruiz']);
});

t.test('a body that is not text (a spreadsheet, UTF-16) is a 400 in Spanish on import and preview, nothing written', async (t) => {
  const me = signToken(app);
  const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), Buffer.from('[Content_Types].xml\nfirstName,lastName\n')]);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEADER + 'Ana,Ruiz,,,,\n', 'utf16le')]);
  for (const [name, body] of [['xlsx', xlsx], ['utf-16', utf16]] as const) {
    for (const url of ['/contacts/import', '/contacts/import/preview']) {
      const res = await upload(me.authorization, url, body, 'application/octet-stream');
      t.equal(res.statusCode, 400, `${name} ${url}`);
      t.match(res.json(), { code: 'IMPORT_NOT_TEXT', message: /no es un CSV ni una vCard de texto/ }, `${name} ${url}`);
    }
  }
  t.same(await stored(me.userId), []);
});

t.test('invalid UTF-8 is read as Windows-1252 text: no line is lost and nothing fails', async (t) => {
  const me = signToken(app);
  // A lone continuation byte, an overlong slash, an encoded surrogate half: none is UTF-8.
  const file = Buffer.concat([Buffer.from(HEADER + 'Ana,Ruiz,,,,\nP'), Buffer.from([0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from(',Sol,,,,\n')]);
  const res = await upload(me.authorization, '/contacts/import', file);
  t.equal(res.statusCode, 200);
  t.same(res.json(), { created: 2, updated: 0, skipped: 0, errors: [] });
  t.same(await stored(me.userId), ['Ana Ruiz', 'P€À¯í\u00a0€ Sol']);
});

t.test('a file that ends inside a UTF-8 sequence, or is nothing but one, is read, not a 500', async (t) => {
  const me = signToken(app);
  const cut = await upload(me.authorization, '/contacts/import', Buffer.concat([Buffer.from(HEADER + 'Ana,Ruiz,,,,\nLuz,Sol,,,,x'), Buffer.from([0xf0, 0x9f])]));
  t.same(cut.json(), { created: 2, updated: 0, skipped: 0, errors: [] });
  t.same(await stored(me.userId), ['Ana Ruiz', 'Luz Sol']);
  const lone = Buffer.from([0xee]);
  t.match((await upload(me.authorization, '/contacts/import', lone, 'application/octet-stream')).json(), { statusCode: 400, code: 'CSV_HEADER' });
  t.match((await upload(me.authorization, '/contacts/import/preview', lone, 'application/octet-stream')).json(), { format: 'csv', headers: ['î'] });
});

t.test('decoding carries a sequence cut between chunks, in UTF-8 and at the switch to Windows-1252', async (t) => {
  const text = async (chunks: number[][]) => {
    let out = '';
    for await (const part of decodeText((async function* () {
      for (const chunk of chunks) yield Buffer.from(chunk);
    })())) out += part;
    return out;
  };
  const ene = [0xc3, 0xb1];
  t.equal(await text([[0x4d, 0x75, ene[0]!], [ene[1]!, 0x6f, 0x7a]]), 'Muñoz');
  // Latin-1 "Muñoz" cut after the ñ, its next chunk not UTF-8 either: every byte is read once.
  t.equal(await text([[0x4d, 0x75, 0xf1], [0x6f, 0x7a, 0xe9]]), 'Muñozé');
  t.equal(await text([[0x41], [0xe2, 0x82]]), 'Aâ‚');
});

t.test('the preview answers a line past the limit with a 400, like the import', async (t) => {
  const me = signToken(app);
  const res = await upload(me.authorization, '/contacts/import/preview', HEADER + 'x'.repeat(1_200_000));
  t.equal(res.statusCode, 400);
  t.match(res.json(), { code: 'CSV_LINE_TOO_LONG', message: /La línea 2 es demasiado larga/ });
});
