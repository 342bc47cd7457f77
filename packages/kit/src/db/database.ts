import path from 'node:path';
import postgres from 'postgres';
import type { Logger } from 'pino';
import { startEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- postgres.js's own default for "no custom types"
type NoCustomTypes = {};
export type Sql = postgres.Sql<NoCustomTypes>;
export type TransactionSql = postgres.TransactionSql<NoCustomTypes>;

export interface Database {
  sql: Sql;
  /** 'pglite' cannot take COPY FROM STDIN over its socket; bulk loads adapt. */
  kind: 'postgres' | 'pglite';
  url: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolMax: number;
  migrateOnStart: boolean;
  log: Logger;
  /** Embedded only: start from this dump of a migrated database (tests: see testing/pglite-template). */
  pgliteTemplate?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { log } = options;
  if (options.databaseUrl) {
    if (options.migrateOnStart) await migrate(options.databaseUrl, log);
    const sql = connect(options.databaseUrl, options.poolMax);
    return { sql, kind: 'postgres', url: options.databaseUrl, close: () => sql.end({ timeout: 5 }) };
  }
  const pgDir = options.dataDir.startsWith('memory://') ? options.dataDir : path.join(options.dataDir, 'pg');
  const embedded = await startEmbeddedPostgres(pgDir, options.pgliteTemplate);
  log.info({ dataDir: pgDir }, 'embedded Postgres (PGlite) started');
  // Migrations close their connection before the shared client opens: the socket serves one at a time.
  await migrate(embedded.url, log);
  const sql = connect(embedded.url, 1);
  return {
    sql,
    kind: 'pglite',
    url: embedded.url,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    transform: postgres.camel,
    onnotice: () => {},
    connection: { application_name: 'mi-asistente' },
  });
}
