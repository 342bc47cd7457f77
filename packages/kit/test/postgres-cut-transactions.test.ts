// Backends terminated under transactions: every transaction settles and the pool keeps all its connections (postgres.js patched).
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import t, { type Test } from 'tap';
import { createTestDatabase } from '../src/testing/index.js';

const serverUrl = process.env.DATABASE_URL;
const skip = serverUrl ? false : 'DATABASE_URL is not set: terminates backends of a real PostgreSQL (CI second pass)';
/** Only bounds a promise that would never settle; each one here settles within milliseconds when it does. */
const NEVER_MS = 15_000;

type Outcome = { ok: unknown } | { error: string } | 'never settled';
const outcome = (promise: Promise<unknown>): Promise<Outcome> =>
  Promise.race([promise.then((ok) => ({ ok }), (error: Error) => ({ error: error.message })), sleep(NEVER_MS, undefined, { ref: false }).then(() => 'never settled' as const)]);

async function setup(t: Test, max: number) {
  const database = await createTestDatabase(serverUrl);
  t.teardown(() => database.drop());
  const sql = postgres(database.url!, { max, onnotice: () => {} });
  t.teardown(() => sql.end({ timeout: 0 }));
  const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
  t.teardown(() => admin.end());
  const name = new URL(database.url!).pathname.slice(1);
  const backends = async (state?: string) =>
    (await admin<{ pid: number; query: string }[]>`select pid, query from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid() and (${state ?? null}::text is null or state = ${state ?? null})`);
  const cut = async () => {
    const pids = (await backends()).map((b) => b.pid);
    await admin`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`;
  };
  const until = async (what: string, condition: () => Promise<boolean>) => {
    const deadline = Date.now() + NEVER_MS;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  };
  return { sql, backends, cut, until };
}

/** A promise the test resolves when it chooses: a transaction waits on it between two statements. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

t.test('every connection of the pool cut inside a transaction: the pool gets all of them back', { skip }, async (t) => {
  const { sql, backends, cut, until } = await setup(t, 3);
  // postgres.js then sent its own ROLLBACK to the closed connection, which parked it for good: three cuts like
  // this one and every later query waited forever.
  const transactions = [1, 2, 3].map(() => outcome(sql.begin((tx) => tx`select pg_sleep(30)`)));
  await until('three transactions sleeping', async () => (await backends('active')).filter((b) => b.query.includes('pg_sleep')).length === 3);
  await cut();
  for (const settled of await Promise.all(transactions)) t.match(settled, { error: /CONNECTION_CLOSED|terminating connection/ }, 'the cut transaction fails');
  const after = await Promise.all([1, 2, 3].map((i) => outcome(sql`select ${i}::int as n, pg_sleep(0.2)`)));
  t.same(after.map((o) => (typeof o === 'object' && 'ok' in o ? (o.ok as { n: number }[])[0]!.n : o)), [1, 2, 3], 'three queries at once answer afterwards');
  t.equal((await backends()).length, 3, 'on three connections again');
});

t.test('a transaction cut while it awaited something else: its late statements fail, the next transaction settles', { skip }, async (t) => {
  const { sql, backends, cut, until } = await setup(t, 1);
  await sql`select 1`;
  const firstGate = gate();
  let lateStatement: Outcome | undefined;
  const first = outcome(
    sql.begin(async (tx) => {
      await tx`select 1`;
      await firstGate.wait;
      // Its connection was cut meanwhile: this statement (and a COMMIT after it) ran on the next session,
      // inside whichever transaction held the connection by then, and ended it.
      lateStatement = await outcome(tx`select 2`);
    }),
  );
  await until('the first transaction idle in its transaction', async () => (await backends('idle in transaction')).length === 1);
  await cut();
  t.match(await first, { error: /CONNECTION_CLOSED|terminating connection/ }, 'the first transaction fails at the cut');

  const secondGate = gate();
  const second = outcome(
    sql.begin(async (tx) => {
      await tx`select 1`;
      await secondGate.wait;
      return tx`select ${3}::int as n`;
    }),
  );
  await until('the second transaction idle in its transaction', async () => (await backends('idle in transaction')).length === 1);
  firstGate.open();
  await until('the first transaction woken', async () => lateStatement !== undefined);
  t.match(lateStatement, { error: /CONNECTION_CLOSED/ }, 'its late statement fails instead of running in the second transaction');
  const pooled = outcome(sql`select pg_sleep(${0.1})`);
  secondGate.open();
  t.match(await second, { ok: [{ n: 3 }] }, 'the second transaction settles, committed');
  t.not(await pooled, 'never settled', 'the query queued behind it is answered');
  t.match(await outcome(sql`select 1 as x`), { ok: [{ x: 1 }] }, 'the pool serves after');
});
