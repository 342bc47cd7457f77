import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { Logger } from 'pino';
import { migrate } from '../db/migrate.js';
import { migrationsFingerprint } from './migrations-fingerprint.js';

const PREFIX = 'asistente_template_';
const cached = new Map<string, Promise<string>>();

/**
 * The name of a database on `serverUrl` holding every migration, built once per set of migrations and
 * kept on the server: a test database copied from it (`create database … template`) is ready in about a
 * tenth of a second, where migrating an empty one takes about a second.
 */
export function postgresTemplate(serverUrl: string, log: Logger): Promise<string> {
  let template = cached.get(serverUrl);
  if (!template) {
    template = findOrBuild(serverUrl, log);
    cached.set(serverUrl, template);
  }
  return template;
}

async function findOrBuild(serverUrl: string, log: Logger): Promise<string> {
  const name = `${PREFIX}${await migrationsFingerprint()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (found) return name;
    // Built under another name and renamed when complete: test processes building it at once never copy
    // a half-migrated database, and the one that renames second drops its own.
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`create database ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    await migrate(url.toString(), log);
    // The migration's connection may still be closing; a database can only be renamed with no one in it.
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${building}`;
    try {
      await admin.unsafe(`alter database ${building} rename to ${name}`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error;
      await admin.unsafe(`drop database ${building} with (force)`);
      return name;
    }
    await dropOutdated(admin, name);
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * Runs of other checkouts on the same server (a branch with one more migration) build templates of their
 * own and copy from them for as long as they run: the newest few stay, so a run never finds the template
 * it is using dropped under it.
 */
const OTHER_TEMPLATES_KEPT = 4;

/** Templates of earlier migration sets, left by earlier runs on this server, but the newest few. */
async function dropOutdated(admin: postgres.Sql, current: string): Promise<void> {
  const outdated = await admin<{ datname: string }[]>`
    select datname from pg_database where datname ~ ${`^${PREFIX}[0-9a-f]{16}$`} and datname <> ${current}
     order by oid desc offset ${OTHER_TEMPLATES_KEPT}`;
  for (const { datname } of outdated) {
    // Another run may be copying it right now: it stays until a later run finds it idle.
    await admin.unsafe(`drop database if exists ${datname}`).catch(() => {});
  }
}
