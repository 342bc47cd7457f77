import t from 'tap';
import { allowLongStatements, createHttpApp, withoutStatementTimeout } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

/**
 * The pools' statement timeout (DB_STATEMENT_TIMEOUT_MS), on a real PostgreSQL: PGlite keeps no timers,
 * so the embedded pass has nothing to measure. A statement stuck behind a lock stands for a database that
 * does not answer.
 */
const LIMIT_MS = 300;

if (!process.env.DATABASE_URL) {
  t.comment('statement timeout: needs DATABASE_URL (PostgreSQL); PGlite does not enforce statement_timeout');
  t.pass('skipped without PostgreSQL');
} else {
  const platform = await createTestPlatform(t, { config: { DB_STATEMENT_TIMEOUT_MS: LIMIT_MS } });
  const { sql } = platform.db;
  await sql`create table public.held (id int primary key)`;
  await sql`insert into public.held values (1)`;

  const app = createHttpApp({ log: platform.log, bodyLimit: 1024 });
  app.get('/held', async () => {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.held`;
    return row;
  });
  await app.ready();
  t.teardown(() => app.close());

  /** Holds an exclusive lock on the table until the returned release is called. */
  async function lockHeld(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = sql.begin(async (tx) => {
      await allowLongStatements(tx);
      await tx`lock table public.held in access exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    return () => {
      release();
      void holding;
    };
  }

  t.test('every pooled connection starts with the configured limit', async (t) => {
    const [row] = await sql<{ statementTimeout: string }[]>`show statement_timeout`;
    t.equal(row?.statementTimeout, `${LIMIT_MS}ms`);
  });

  t.test('a statement over the limit answers 503 with a Spanish message, and the next one works', async (t) => {
    const release = await lockHeld();
    const res = await app.inject({ method: 'GET', url: '/held' });
    release();
    t.equal(res.statusCode, 503);
    t.match(res.json(), { statusCode: 503, code: 'DATABASE_UNAVAILABLE', error: String, message: /no está disponible/ });
    const after = await app.inject({ method: 'GET', url: '/held' });
    t.equal(after.statusCode, 200, 'the pool recovers without a restart');
    t.same(after.json(), { n: 1 });
  });

  t.test('a transaction that lifts the limit (imports, rebuilds) runs past it', async (t) => {
    const [row] = await sql.begin(async (tx) => {
      await allowLongStatements(tx);
      return tx<{ slept: string }[]>`select pg_sleep(${(LIMIT_MS * 2) / 1000})::text as slept`;
    });
    t.equal(row?.slept, '');
    const [limit] = await sql<{ statementTimeout: string }[]>`show statement_timeout`;
    t.equal(limit?.statementTimeout, `${LIMIT_MS}ms`, 'the limit is back once the transaction ends');
  });

  t.test('a cursor paced by a slow reader is not cut, and its connection gets the limit back', async (t) => {
    let read = 0;
    for await (const rows of withoutStatementTimeout(sql, (connection) => connection<{ g: number }[]>`select g from generate_series(1, 4) g`.cursor(1))) {
      read += rows.length;
      // The reader is slower than the limit between two fetches.
      await sql.begin(async (tx) => {
        await allowLongStatements(tx);
        await tx`select pg_sleep(${LIMIT_MS / 1000})`;
      });
    }
    t.equal(read, 4);
    const limits = await Promise.all(Array.from({ length: platform.config.DB_POOL_MAX }, () => sql<{ statementTimeout: string }[]>`show statement_timeout`));
    t.same(new Set(limits.map(([row]) => row?.statementTimeout)), new Set([`${LIMIT_MS}ms`]), 'no pooled connection kept the lifted limit');
  });

  t.test('an unused pooled connection is closed after a minute, so a quiet replica gives its back', async (t) => {
    // Every replica of every service shares the server's max_connections (scripts/lib/connection-budget.js).
    t.equal(sql.options.idle_timeout, 60);
  });

  t.test('LISTEN keeps working on a connection idle for longer than the limit', async (t) => {
    let heard!: (payload: string) => void;
    const received = new Promise<string>((resolve) => (heard = resolve));
    const listening = await sql.listen('statement_timeout_test', (payload) => heard(payload));
    await sql.begin(async (tx) => {
      await allowLongStatements(tx);
      await tx`select pg_sleep(${(LIMIT_MS * 2) / 1000})`;
    });
    await sql`select pg_notify('statement_timeout_test', 'hola')`;
    t.equal(await received, 'hola');
    await listening.unlisten();
  });
}
