import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../../gateway/src/gateway.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** The command as a user runs it (from source), the password piped on stdin. */
function cli(args: string[], stdin: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=asistente-source', MAIN, '--api-url', base, ...args], {
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', XDG_CONFIG_HOME: '/nonexistent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Every service in the one embedded gateway: each reports its part of the erasure.
const platform = await createTestPlatform(t, { nats: true });
const gateway = await buildGateway(platform, 'embedded');
const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
t.teardown(() => gateway.close());

const registered = await gateway.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { firstName: 'Rosa', lastName: 'Vidal', email: `rosa.${Date.now()}@horno.es`, password: 'secreto1' },
});
const { token, user } = registered.json<{ token: string; user: { id: string } }>();
await gateway.inject({ method: 'POST', url: '/api/contacts', headers: { authorization: `Bearer ${token}` }, payload: { firstName: 'Pan', lastName: 'Duro' } });

t.test('a wrong password is said in Spanish and the account stays', async (t) => {
  const run = await cli(['account', 'delete', '--password-stdin'], 'otra\n', { ASISTENTE_TOKEN: token });
  t.equal(run.code, 1);
  t.match(run.stderr, /La contraseña no es correcta: no se ha borrado nada/);
  t.equal((await gateway.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
});

t.test('without a terminal nor --password-stdin it asks for the flag', async (t) => {
  const run = await cli(['account', 'delete'], '', { ASISTENTE_TOKEN: token });
  t.equal(run.code, 2);
  t.match(run.stderr, /--password-stdin/);
});

t.test('the right password deletes the account and shows every service done', async (t) => {
  const run = await cli(['account', 'delete', '--password-stdin'], 'secreto1\n', { ASISTENTE_TOKEN: token });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /Contactos, papelera y vistas guardadas: borrado/);
  t.match(run.stdout, /Tu cuenta y todos tus datos se han eliminado/);
  t.equal((await gateway.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode, 401, 'the session is over');
  const [left] = await platform.db.sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${user.id}`;
  t.equal(Number(left!.n), 0, 'the contacts are gone');

  const json = await cli(['account', 'delete', '--password-stdin', '--json'], 'secreto1\n', { ASISTENTE_TOKEN: token });
  t.equal(json.code, 1, 'a second time there is no session to delete with');
});
