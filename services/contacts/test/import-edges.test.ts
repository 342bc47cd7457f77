import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';
import { IMPORT_BATCH_ROWS } from '../src/domain/contacts-importer.js';

// Above one import batch on PostgreSQL (5,000 rows of ~50 bytes), so only the limit test reaches it.
const LIMIT = 1024 * 1024;
const platform = await createTestPlatform(t, { config: { CONTACTS_IMPORT_MAX_BYTES: LIMIT } });
const app = await buildServiceApp(t, contactsService, platform);
const sql = platform.db.sql;
const HEADER = 'firstName,lastName,email,phone,company,tags\n';

function importCsv(authorization: string, body: string, query = '') {
  return app.inject({
    method: 'POST',
    url: `/contacts/import${query}`,
    headers: { authorization, 'content-type': 'text/csv' },
    payload: body,
  });
}

async function rowCount(userId: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${userId}`;
  return Number(row!.n);
}

function rows(count: number, from = 0): string {
  let text = '';
  for (let i = from; i < from + count; i++) text += `N${i},A${i},u${i}@edge.es,+34 6${String(i).padStart(8, '0')},Empresa ${i % 9},t${i % 3}\n`;
  return text;
}

t.test('an upload over the documented limit answers 413 in Spanish and writes nothing', async (t) => {
  const me = signToken(app);
  const body = HEADER + rows(Math.ceil(LIMIT / 40));
  t.ok(body.length > LIMIT);
  const res = await importCsv(me.authorization, body);
  t.equal(res.statusCode, 413);
  t.match(res.json(), { statusCode: 413, code: 'UPLOAD_TOO_LARGE', message: /supera el máximo de 1 MB/ });
  t.equal(await rowCount(me.userId), 0);
});

t.test('a dry run writes nothing: no rows, no outbox, no WAL', async (t) => {
  const me = signToken(app);
  await importCsv(me.authorization, HEADER + rows(100));
  // The import's events (one per contact) are published first: the relay's writes are not the dry run's.
  const unpublished = async () => (await sql<{ n: number }[]>`select count(*)::int as n from contacts.outbox where published_at is null`)[0]!.n;
  while ((await unpublished()) > 0);
  const [before] = await sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
  const res = await importCsv(me.authorization, HEADER + rows(3000), '?dryRun=true');
  const report = res.json();
  t.match(report, { created: 2900, updated: 0, skipped: 100, errors: [] });
  t.same(report.skippedLines, Array.from({ length: 100 }, (_, i) => ({ line: i + 2, reason: 'ya existe (mismo correo)' })), 'each skip with its reason');
  const [growth] = await sql<{ bytes: string }[]>`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${before!.lsn}::pg_lsn) as bytes`;
  // The WAL is the whole cluster's: only the embedded database (where the growth was seen) is this test's alone.
  if (platform.db.kind === 'pglite') t.ok(Number(growth!.bytes) < 8192, `WAL grew by ${growth!.bytes} bytes`);
  t.equal(await rowCount(me.userId), 100);
});

t.test('a dry run counts an address seen in several batches once, like the import itself', async (t) => {
  const me = signToken(app);
  const batch = IMPORT_BATCH_ROWS[platform.db.kind];
  const file = HEADER + rows(batch + 10) + 'Otra,Vez,u0@EDGE.es,,,\n' + rows(5);
  const dry = (await importCsv(me.authorization, file, '?dryRun=true')).json();
  const real = (await importCsv(me.authorization, file)).json();
  t.same(dry, real);
  t.match(real, { created: batch + 10, updated: 0, skipped: 6, errors: [] });
  t.equal(real.skippedLines.length, 6, 'every skipped line says why');
  t.ok(real.skippedLines.every((s: { reason: string }) => s.reason === 'repetida en el archivo (mismo correo)'), 'an address of an earlier batch is a repeat');
  t.equal(await rowCount(me.userId), batch + 10);
});

t.test('a file with a header and no rows says so; a file with no line break too', async (t) => {
  const me = signToken(app);
  const headerOnly = await importCsv(me.authorization, HEADER + '\n\n');
  t.equal(headerOnly.statusCode, 400);
  t.match(headerOnly.json(), { code: 'CSV_NO_ROWS', message: /no tiene filas de contactos/ });
  const oneLine = await importCsv(me.authorization, 'firstName,lastName,' + 'x'.repeat(LIMIT - 100));
  t.equal(oneLine.statusCode, 400);
  t.match(oneLine.json().message, /demasiado larga|cabecera/);
});

t.test('an unclosed quote is reported on its own line and the rest of the file is still read', async (t) => {
  const me = signToken(app);
  const file = HEADER + 'Rota,"sin cerrar,roto@edge.es,,,\n' + rows(500) + 'Nota,"de varias\nlíneas",nota@edge.es,,,\n';
  const res = await importCsv(me.authorization, file);
  t.same(res.json(), { created: 501, updated: 0, skipped: 0, errors: [{ line: 2, message: 'Comillas sin cerrar: la línea se ha ignorado' }] });
  const list = await app.inject({ url: '/contacts?search=nota@edge.es', headers: { authorization: me.authorization } });
  t.equal(list.json().contacts[0].lastName, 'de varias\nlíneas', 'a quoted cell may still span lines');

  const atEnd = await importCsv(signToken(app).authorization, HEADER + rows(3) + 'Fin,"abierta,fin@edge.es\n');
  t.same(atEnd.json(), { created: 3, updated: 0, skipped: 0, errors: [{ line: 5, message: 'Comillas sin cerrar: la línea se ha ignorado' }] });
});

t.test('an early refusal closes the connection instead of leaving the client sending to nobody', async (t) => {
  const me = signToken(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const answer = (headers: Record<string, string | number>, write: (req: ReturnType<typeof httpRequest>) => void) =>
    new Promise<{ res: IncomingMessage; body: string; closed: Promise<void> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/contacts/import', headers: { authorization: me.authorization, 'content-type': 'text/csv', ...headers } });
      const closed = new Promise<void>((done) => req.on('close', () => done()));
      req.on('error', () => undefined);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ res, body, closed }));
        res.on('error', reject);
      });
      write(req);
    });

  // A wrong header, then 4 MB still on their way (chunked, so no length warns the server).
  const badHeader = await answer({ 'transfer-encoding': 'chunked' }, (req) => {
    req.write('email,phone\n');
    req.end('a@x.es,1\n'.repeat(500_000));
  });
  t.equal(badHeader.res.statusCode, 400);
  t.equal(badHeader.res.headers.connection, 'close');
  t.match(JSON.parse(badHeader.body).message, /cabecera/);
  await badHeader.closed;

  // A declared length over the limit is refused before a byte is read.
  const declared = await answer({ 'content-length': LIMIT * 4 }, (req) => req.write(HEADER));
  t.equal(declared.res.statusCode, 413);
  t.equal(declared.res.headers.connection, 'close');
  await declared.closed;
});

t.test("one user's large import leaves room for another user's requests", async (t) => {
  const importer = signToken(app);
  const other = signToken(app);
  // Several batches, so the import is still running after its first commit (5,000 rows are one batch on PostgreSQL).
  const total = Math.max(5000, 2 * IMPORT_BATCH_ROWS[platform.db.kind]);
  let done = false;
  const running = importCsv(importer.authorization, HEADER + rows(total)).then((res) => {
    done = true;
    return res;
  });
  // Wait until the import has committed its first batch, then ask as someone else.
  const deadline = Date.now() + 60_000;
  while ((await rowCount(importer.userId)) === 0) {
    if (Date.now() > deadline) throw new Error('the import never wrote a batch');
  }
  const list = await app.inject({ url: '/contacts?limit=5', headers: { authorization: other.authorization } });
  t.equal(list.statusCode, 200);
  t.equal(done, false, 'answered while the import was still running');
  t.equal((await running).json().created, total);
});

t.test('export refuses a control character before the stream starts', async (t) => {
  const me = signToken(app);
  const res = await app.inject({ url: '/contacts/export?search=%00', headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 400);
  t.match(res.headers['content-type'], /application\/json/);
  t.match(res.json(), { statusCode: 400, message: /search/ });
});

t.test('export neutralises spreadsheet formulas but not phone numbers, and they import back as written', async (t) => {
  const me = signToken(app);
  const payload = { firstName: '=HYPERLINK("http://x")', lastName: '@SUMA(A1)', phone: '+34 600 11 22 33', company: '-2+3', tags: ['=1+1'] };
  t.equal((await app.inject({ method: 'POST', url: '/contacts', headers: { authorization: me.authorization }, payload })).statusCode, 201);
  const res = await app.inject({ url: '/contacts/export', headers: { authorization: me.authorization } });
  const line = res.body.split('\r\n')[1]!;
  t.equal(line, `"'=HYPERLINK(""http://x"")",'@SUMA(A1),,+34 600 11 22 33,'-2+3,'=1+1`);
  const copy = signToken(app);
  t.same((await importCsv(copy.authorization, res.body)).json(), { created: 1, updated: 0, skipped: 0, errors: [] });
  const back = (await app.inject({ url: '/contacts', headers: { authorization: copy.authorization } })).json().contacts[0];
  t.match(back, { firstName: payload.firstName, lastName: payload.lastName, phone: payload.phone, company: payload.company, tags: payload.tags });
});
