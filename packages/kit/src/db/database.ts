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
    if (options.migrateOnStart) await migrate(options.databaseUrl, log).catch(unreachable(options.databaseUrl));
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

/** The database could not be reached at boot: one line for the operator, no stack trace. */
export class DatabaseUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    const where = safeAddress(url);
    const why = (cause as { code?: string; message?: string })?.code ?? (cause as Error)?.message ?? String(cause);
    super(`Database unreachable at ${where} (${why}): check DATABASE_URL and that PostgreSQL is running`);
    this.name = 'DatabaseUnreachableError';
  }
}

function safeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(DATABASE_URL)';
  }
}

const CONNECTION_FAILURES = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|CONNECT_TIMEOUT|ECONNRESET|EAI_AGAIN|timeout/i;

function unreachable(url: string) {
  return (error: unknown): never => {
    const text = `${(error as { code?: string })?.code ?? ''} ${(error as Error)?.message ?? ''}`;
    if (CONNECTION_FAILURES.test(text) || (error as { errors?: unknown[] })?.errors) throw new DatabaseUnreachableError(url, error);
    throw error;
  };
}

/** Seconds to wait for a new connection: a database that does not answer fails requests in seconds, not minutes. */
const CONNECT_TIMEOUT_SECONDS = 5;

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    transform: postgres.camel,
    onnotice: () => {},
    connection: { application_name: 'mi-asistente' },
  });
}
