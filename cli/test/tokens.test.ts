import t from 'tap';
import authService from '@asistente/auth';
import contactsService from '@asistente/contacts';
import { distributedGateway, ownerWithContact, runCli } from './support/cli.js';

/** The command as a user runs it, against the gateway of this test. */
const cli = (args: string[], env: Record<string, string> = {}) => runCli(['--api-url', base, ...args], { env });

/**
 * The gateway as it stands before services of their own, here auth and contacts in one app on the same
 * platform (so the test needs no other service): the exchange of a personal token happens at the edge.
 */
const { gateway, base } = await distributedGateway(t, [authService, contactsService]);
const { token: session } = await ownerWithContact(gateway, 'rosa@horno.es', { firstName: 'Lucía', lastName: 'Gómez' });

t.test('tokens create prints the token once; --token and ASISTENTE_TOKEN use it; revoke ends it', async (t) => {
  const created = await cli(['--token', session, 'tokens', 'create', 'Mi script', '--scope', 'contacts:read', '--scope', 'analytics:read', '--expires', '90']);
  t.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();
  t.match(token, /^asis_pat_[A-Za-z0-9_-]{43}$/, 'the token alone on stdout');
  t.match(created.stderr, /Token «Mi script» creado\. Cópialo ahora: no se volverá a mostrar\./);

  const listed = await cli(['tokens', 'list'], { ASISTENTE_TOKEN: session });
  t.equal(listed.code, 0);
  t.match(listed.stdout, /Mi script \(asis_pat_[\w-]{6}…\)/);
  t.match(listed.stdout, /contacts:read, analytics:read/);
  t.match(listed.stdout, /Nunca usado · caduca /);
  t.notOk(listed.stdout.includes(token), 'never the secret again');

  const [viaEnv, denied] = await Promise.all([cli(['contacts', 'list', '--json'], { ASISTENTE_TOKEN: token }), cli(['--token', token, 'tokens', 'list'])]);
  t.equal(viaEnv.code, 0, viaEnv.stderr);
  t.equal(JSON.parse(viaEnv.stdout).total, 1, 'ASISTENTE_TOKEN reads the contacts');
  t.equal(denied.code, 1);
  t.equal(denied.stderr, 'Error: Este token no tiene permiso para esta operación\n', 'a token cannot manage tokens');

  const { data } = JSON.parse((await cli(['--json', '--token', session, 'tokens', 'list'])).stdout) as { data: { id: string; lastUsedAt: string | null }[] };
  t.ok(data[0]!.lastUsedAt, 'its use is shown');
  const revoked = await cli(['--token', session, 'tokens', 'revoke', data[0]!.id]);
  t.equal(revoked.code, 0, revoked.stderr);
  t.equal(revoked.stdout, 'Token revocado\n');
  const after = await cli(['--token', token, 'contacts', 'list']);
  t.equal(after.code, 1);
  t.equal(after.stderr, 'Error: El token de acceso no es válido, ha caducado o fue revocado\n');
  t.same((await gateway.inject({ url: '/api/auth/tokens', headers: { authorization: `Bearer ${session}` } })).json().data, [], 'gone');
});

t.test('a scope or lifetime the server would refuse is a usage error, and nothing is sent', async (t) => {
  const [scope, days] = await Promise.all([
    cli(['--token', session, 'tokens', 'create', 'Raro', '--scope', 'contacts:delete']),
    cli(['--token', session, 'tokens', 'create', 'Raro', '--scope', 'contacts:read', '--expires', '7']),
  ]);
  t.equal(scope.code, 2);
  t.match(scope.stderr, /Permiso no válido: contacts:delete/);
  t.equal(days.code, 2);
  t.match(days.stderr, /La caducidad debe ser de 30, 90 o 365 días/);
  t.equal((await gateway.inject({ url: '/api/auth/tokens', headers: { authorization: `Bearer ${session}` } })).json().data.length, 0);
});
