import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { noteBackendUse } from './backend-use.js';

export interface TestDatabase {
  /** DATABASE_URL for the platform: a fresh database, or undefined for in-memory PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL set (CI's real Postgres) every test gets a database of
 * its own, created empty (or as a copy of `template`) and dropped afterwards,
 * so runs never collide; without it the platform falls back to an in-memory PGlite.
 */
export async function createTestDatabase(serverUrl = process.env.DATABASE_URL, template?: string): Promise<TestDatabase> {
  noteBackendUse();
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `asistente_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
