import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { listeningGateway, ownerWithContact, runCli } from './support/cli.js';

/** The command as a user runs it, the password piped on stdin. */
const cli = (args: string[], stdin: string, env: Record<string, string> = {}) => runCli(['--api-url', base, ...args], { env, stdin });

// Every service in the one embedded gateway: each reports its part of the erasure.
const platform = await createTestPlatform(t, { nats: true });
const { gateway, base } = await listeningGateway(t, platform, 'embedded');
const { token, userId } = await ownerWithContact(gateway, `rosa.${Date.now()}@horno.es`, { firstName: 'Pan', lastName: 'Duro' });

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
  const [left] = await platform.db.sql<{ n: string }[]>`select count(*) as n from contacts.contacts where user_id = ${userId}`;
  t.equal(Number(left!.n), 0, 'the contacts are gone');

  const json = await cli(['account', 'delete', '--password-stdin', '--json'], 'secreto1\n', { ASISTENTE_TOKEN: token });
  t.equal(json.code, 1, 'a second time there is no session to delete with');
});
