import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import emailService from '@asistente/email';
import inboxService from '@asistente/inbox';
import whatsappService from '@asistente/whatsapp';
import { readZip } from '@asistente/kit/testing';
import { distributedGateway, ownerWithContact, runCli } from './support/cli.js';

/** The command as a user runs it, against the gateway of this test. */
const cli = (args: string[]) => runCli(['--api-url', base, ...args]);

// Every service in one process behind a distributed gateway: auth asks each for its part over HTTP.
const { gateway, base } = await distributedGateway(t, [authService, contactsService, whatsappService, emailService, calendarService, aiService, analyticsService, inboxService]);
const { token: session } = await ownerWithContact(gateway, 'rosa.export@horno.es', { firstName: 'Lucía', lastName: 'Gómez' });

const dir = await mkdtemp(join(tmpdir(), 'asistente-export-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

t.test('export --out writes the ZIP of the account, and nothing half-written', async (t) => {
  const out = join(dir, 'mis-datos.zip');
  const run = await cli(['--token', session, 'export', '--out', out]);
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, `Tus datos están en ${out}\n`);
  const files = readZip(await readFile(out));
  t.match(JSON.parse(files.get('cuenta/perfil.json')!.toString('utf8')), { email: 'rosa.export@horno.es', firstName: 'Rosa' });
  t.match(files.get('contactos/contactos.csv')!.toString('utf8'), 'Lucía,Gómez');
  t.ok(files.has('whatsapp/respuestas-automaticas.json') && files.has('calendario/eventos.ics') && files.has('analitica/totales.csv'), 'every service');
  t.same(await readdir(dir), ['mis-datos.zip'], 'no .partial file left');

  const json = await cli(['--json', '--token', session, 'export', '--out', join(dir, 'otra.zip')]);
  t.equal(json.code, 0, json.stderr);
  t.match(JSON.parse(json.stdout), { file: join(dir, 'otra.zip'), bytes: Number, expiresAt: String });
});

t.test('without --out it is a usage error; a personal access token cannot export', async (t) => {
  const missing = await cli(['--token', session, 'export']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /--out/);
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/auth/tokens',
    headers: { authorization: `Bearer ${session}` },
    payload: { name: 'Script', scopes: ['contacts:read'] },
  });
  const refused = await cli(['--token', created.json<{ token: string }>().token, 'export', '--out', join(dir, 'no.zip')]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^Error: /);
  t.notOk((await readdir(dir)).includes('no.zip'), 'no file');
});
