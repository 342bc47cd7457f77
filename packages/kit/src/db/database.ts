import path from 'node:path';
import postgres from 'postgres';
import type { Logger } from 'pino';
import { traceQueries } from '../observability/tracing/query-spans.js';
import { tracingOn } from '../observability/tracing/trace-context.js';
import { startEmbeddedPostgres } from './embedded.js';
import { announceEmbedded, assertDataDirFree } from './embedded-presence.js';
import { migrate } from './migrate.js';
import { UNLIMITED_PIPELINE, unblockedSocket } from './unblocked-socket.js';

import type { Sql, TransactionSql } from './sql.js';

export type { Sql, TransactionSql } from './sql.js';

/** How long a close waits for running queries before cutting them. */
const CLOSE_WAIT_SECONDS = 5;

export interface Database {
  sql: Sql;
  /** 'pglite' cannot take COPY FROM STDIN over its socket; bulk loads adapt. */
  kind: 'postgres' | 'pglite';
  url: string;
  /** PostgreSQL only: the application_name this process's connections carry (its metrics find them by it). */
  applicationName?: string;
  /**
   * Waits for running queries (up to 5 s), then closes. `now`: at once, running queries cut (a second
   * Ctrl+C, a shutdown past its deadline); it also overtakes a close already waiting. Embedded, both stop
   * PGlite, which removes its postmaster.pid, and then this process's embedded-db.json.
   */
  close(options?: { now?: boolean }): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolMax: number;
  /**
   * PostgreSQL cancels a pool statement after this long (0 or unset = never): a database that hangs fails
   * requests with 503 in seconds. Not applied to migrations (their own connection) nor embedded (PGlite
   * keeps no timers); imports and rebuilds lift it per transaction with allowLongStatements.
   */
  statementTimeoutMs?: number | undefined;
  migrateOnStart: boolean;
  /** What PostgreSQL shows for this process's connections (`pg_stat_activity.application_name`). */
  applicationName?: string | undefined;
  log: Logger;
  /** Embedded only: start from this dump of a migrated database (tests: see testing/pglite-template). */
  pgliteTemplate?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { log } = options;
  if (options.databaseUrl) {
    if (options.migrateOnStart) await migrate(options.databaseUrl, log).catch(unreachable(options.databaseUrl));
    const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
    const sql = connect(options.databaseUrl, options.poolMax, options.statementTimeoutMs, false, applicationName);
    const close = ({ now = false } = {}) => sql.end({ timeout: now ? 0 : CLOSE_WAIT_SECONDS });
    return { sql, kind: 'postgres', url: options.databaseUrl, applicationName, close };
  }
  const inMemory = options.dataDir.startsWith('memory://');
  const pgDir = inMemory ? options.dataDir : path.join(options.dataDir, 'pg');
  // PGlite locks nothing: a second process on the same files (a restore, another server) would corrupt them.
  if (!inMemory) await assertDataDirFree(options.dataDir, log);
  // Claimed before PGlite writes its postmaster.pid: as long as that file is there, embedded-db.json names
  // the process behind it, and a command that finds the process gone knows the lock is stale.
  const release = inMemory ? async () => {} : await announceEmbedded(options.dataDir);
  const embedded = await startEmbeddedPostgres(pgDir, options.pgliteTemplate).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  log.info({ dataDir: pgDir }, 'embedded Postgres (PGlite) started');
  // Where `asistente admin backup` finds the running database.
  if (!inMemory) await announceEmbedded(options.dataDir, embedded.url);
  let stopped: Promise<void> | undefined;
  // Stopping PGlite closes its socket, which also ends a client still waiting on its queries.
  const stop = () => (stopped ??= embedded.stop().then(release));
  // Migrations close their connection before the shared client opens: the socket serves one at a time.
  await migrate(embedded.url, log).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const sql = connect(embedded.url, 1, 0, true);
  return {
    sql,
    kind: 'pglite',
    url: embedded.url,
    async close({ now = false } = {}) {
      const ended = sql.end({ timeout: now ? 0 : CLOSE_WAIT_SECONDS });
      if (now) ended.catch(() => undefined);
      else await ended;
      await stop();
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
/**
 * Seconds an unused pooled connection is kept. postgres.js otherwise keeps every connection it ever opened:
 * after one burst each replica would hold its whole pool for good, and the server's max_connections is
 * shared by every replica of every service.
 */
const IDLE_CONNECTION_SECONDS = 60;

const DEFAULT_APPLICATION_NAME = 'mi-asistente';

function connect(url: string, max: number, statementTimeoutMs = 0, shared = false, applicationName = DEFAULT_APPLICATION_NAME): Sql {
  const sql = postgres(url, {
    max,
    // The embedded database's one shared connection (see unblockedSocket) stays open; a server's pool shrinks when idle.
    ...(shared ? { socket: unblockedSocket(url), max_pipeline: UNLIMITED_PIPELINE } : { idle_timeout: IDLE_CONNECTION_SECONDS }),
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    transform: postgres.camel,
    onnotice: () => {},
    // A startup parameter: every pooled connection (LISTEN's too, which it never bothers: it waits idle) has it.
    connection: { application_name: applicationName, ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}) },
  });
  // A span per query only while tracing is on (started before the database opens); otherwise postgres.js untouched.
  return tracingOn() ? traceQueries(sql) : sql;
}

/**
 * Lifts the pool's statement timeout for the rest of `tx`: a long import, a bulk load or a rebuild runs as
 * long as it needs (it holds its own connection; the other requests keep theirs and their limit).
 */
export async function allowLongStatements(tx: TransactionSql): Promise<void> {
  await tx`set local statement_timeout = 0`;
}

/**
 * Runs `rows` on a connection of its own with no statement timeout, for a cursor paced by its reader (a
 * streamed export to a slow client holds one statement open as long as it reads). The connection gets the
 * pool's limit back before it returns to the pool, also when the reader stops early.
 */
export async function* withoutStatementTimeout<T>(sql: Sql, rows: (connection: Sql) => AsyncIterable<T>): AsyncGenerator<T> {
  const connection = await sql.reserve();
  try {
    await connection`set statement_timeout = 0`;
    yield* rows(connection);
  } finally {
    await connection`reset statement_timeout`.catch(() => undefined);
    connection.release();
  }
}
