import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import aiService from '@asistente/ai';
import analyticsService from '@asistente/analytics';
import authService from '@asistente/auth';
import calendarService from '@asistente/calendar';
import contactsService from '@asistente/contacts';
import emailService from '@asistente/email';
import whatsappService from '@asistente/whatsapp';
import { authPlugin, createHttpApp } from '@asistente/kit';
import { createTestPlatform, readZip } from '@asistente/kit/testing';
import { buildGateway } from '../../gateway/src/gateway.js';
import { ROUTES } from '../../gateway/src/routing-table.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The command as a user runs it (from source), against the gateway of this test. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=asistente-source', MAIN, '--api-url', base, ...args], {
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', XDG_CONFIG_HOME: '/nonexistent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Every service in one process behind a distributed gateway: auth asks each for its part over HTTP.
const port = await freePort();
const servicesUrl = `http://127.0.0.1:${port}`;
const platform = await createTestPlatform(t, { config: Object.fromEntries(ROUTES.map((r) => [r.urlVariable, servicesUrl])) });
const services = createHttpApp({ log: platform.log, bodyLimit: platform.config.BODY_LIMIT_BYTES, streams: platform.streams });
await services.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
for (const plugin of [authService, contactsService, whatsappService, emailService, calendarService, aiService, analyticsService]) await services.register(plugin, { platform });
await services.listen({ port, host: '127.0.0.1' });
t.teardown(() => services.close());
const gateway = await buildGateway(platform, 'distributed');
const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
t.teardown(() => gateway.close());

const registered = await gateway.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { firstName: 'Rosa', lastName: 'Vidal', email: 'rosa.export@horno.es', password: 'secreto1' },
});
const session = registered.json<{ token: string }>().token;
await gateway.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${session}` }, payload: { firstName: 'Lucía', lastName: 'Gómez' } });

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
