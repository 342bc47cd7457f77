import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createPlatform, hashResetToken, type Platform } from '@asistente/kit';
import { buildServiceApp, createTestPlatform } from '@asistente/kit/testing';
import { migratedDataDir } from '@asistente/kit/testing/migrated-data-dir';
import authService from '../../services/auth/src/app.js';
import { issueResetLink } from '../src/commands/admin-reset-password.js';
import { runCli } from './support/cli.js';

const LINK = /^(https?:\/\/\S+\/restablecer\?token=([A-Za-z0-9_-]+))$/m;

const cli = (args: string[], env: Record<string, string>) => runCli(args, { env });

/** What a server killed with its database open leaves: its embedded-db.json (its pid gone) and PGlite's postmaster.pid. */
async function leaveStaleLock(dataDir: string): Promise<number> {
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => gone.once('exit', resolve));
  await writeFile(join(dataDir, 'embedded-db.json'), JSON.stringify({ pid: gone.pid, url: 'postgres://postgres@127.0.0.1:1/postgres' }));
  await mkdir(join(dataDir, 'pg'), { recursive: true });
  await writeFile(join(dataDir, 'pg', 'postmaster.pid'), '-42\n/pglite/data\n');
  return gone.pid!;
}

async function authApp(t: Test, platform: Platform) {
  const app = await buildServiceApp(t, authService, platform);
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
  return { app, post };
}

t.test('issueResetLink makes a working single-use link for an existing account only', async (t) => {
  const platform = await createTestPlatform(t);
  const { post } = await authApp(t, platform);
  await post('/auth/register', { firstName: 'Rosa', lastName: 'Vidal', email: 'rosa@horno.es', password: 'secreto1' });

  t.equal(await issueResetLink(platform.db.sql, 'nadie@horno.es', 'https://app.horno.es'), undefined, 'no account, no link');
  const link = await issueResetLink(platform.db.sql, ' ROSA@horno.es ', 'https://app.horno.es/');
  t.ok(link, 'any case, spaces trimmed');
  const [, url, token] = LINK.exec(link!.url)!;
  t.match(url, /^https:\/\/app\.horno\.es\/restablecer\?token=/);
  const [row] = await platform.db.sql<{ n: number }[]>`
    select count(*)::int as n from auth.password_resets where token_hash = ${hashResetToken(token!)}`;
  t.equal(row!.n, 1, 'stored as its hash');

  t.equal((await post('/auth/password/reset', { token: token!, newPassword: 'Levadura-Madre-5' })).statusCode, 200);
  t.equal((await post('/auth/password/reset', { token: token!, newPassword: 'Otra-Vez-55' })).statusCode, 400, 'once');
  t.equal((await post('/auth/login', { email: 'rosa@horno.es', password: 'Levadura-Madre-5' })).statusCode, 200);
});

t.test('asistente admin reset-password prints the link; it works once', async (t) => {
  const base = await createTestPlatform(t);
  // PostgreSQL: the command runs beside the live service. Embedded: against the data directory, server stopped
  // (its database already migrated: what is tested is the command, not a first start's initdb).
  const dataDir = base.config.DATABASE_URL ? undefined : await migratedDataDir('asistente-reset-');
  if (dataDir) t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const config = dataDir ? { ...base.config, DATA_DIR: dataDir } : base.config;
  const open = async () => {
    const platform = dataDir ? await createPlatform(config, 'auth', { log: base.log }) : base;
    return { platform, ...(await authApp(t, platform)) };
  };

  const first = await open();
  await first.post('/auth/register', { firstName: 'Pau', lastName: 'Serra', email: 'pau@horno.es', password: 'secreto1' });
  if (dataDir) {
    const busy = await cli(['admin', 'reset-password', 'pau@horno.es'], { DATA_DIR: dataDir });
    t.equal(busy.code, 1, 'the embedded database is open by the server: refused, not shared');
    t.match(busy.stderr, `está abierta por el servidor (proceso ${process.pid}): páralo`);
    await first.app.close();
    await first.platform.close();
  }
  const env: Record<string, string> = { PUBLIC_URL: 'https://app.horno.es', ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: config.DATABASE_URL! }) };

  const unknown = await cli(['admin', 'reset-password', 'nadie@horno.es'], env);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, 'No hay ninguna cuenta con el correo nadie@horno.es');
  t.equal(unknown.stdout, '');

  // Stopped uncleanly (a Ctrl+C cut short, a crash): the lock left behind does not keep the owner out.
  const gonePid = dataDir ? await leaveStaleLock(dataDir) : undefined;
  const printed = await cli(['admin', 'reset-password', 'pau@horno.es'], env);
  t.equal(printed.code, 0, printed.stderr);
  if (dataDir) {
    t.match(printed.stderr, `Aviso: la base de datos de ${dataDir} quedó marcada como abierta por el proceso ${gonePid}, que ya no está en marcha`, 'a stale lock is named');
    t.notOk(existsSync(join(dataDir, 'pg', 'postmaster.pid')), 'and cleared: the command closed the database');
    t.notOk(existsSync(join(dataDir, 'embedded-db.json')));
  }
  t.match(printed.stdout, /^Enlace para restablecer la contraseña de pau@horno\.es \(un solo uso, válido hasta las \d\d:\d\d\):$/m);
  const token = LINK.exec(printed.stdout)?.[2];
  t.ok(token, 'the link is on a line of its own');
  t.match(printed.stdout, 'https://app.horno.es/restablecer?token=');

  const json = await cli(['--json', 'admin', 'reset-password', 'pau@horno.es'], env);
  t.equal(json.code, 0);
  t.match(JSON.parse(json.stdout), { email: 'pau@horno.es', url: /^https:\/\/app\.horno\.es\/restablecer\?token=/, expiresAt: String });

  const missing = await cli(['admin', 'reset-password', 'pau@horno.es'], { PUBLIC_URL: 'https://app.horno.es' });
  t.equal(missing.code, 2, 'no database: a usage error');
  t.match(missing.stderr, 'Falta la base de datos');

  const second = dataDir ? await open() : first;
  if (dataDir) t.teardown(() => second.platform.close());
  t.equal((await second.post('/auth/password/reset', { token: token!, newPassword: 'Horno-de-Lena-8' })).statusCode, 200);
  const again = await second.post('/auth/password/reset', { token: token!, newPassword: 'Horno-de-Lena-9' });
  t.equal(again.statusCode, 400, 'the printed link works once');
  t.equal((await second.post('/auth/login', { email: 'pau@horno.es', password: 'Horno-de-Lena-8' })).statusCode, 200);
});
