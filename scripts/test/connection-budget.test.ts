import postgres from 'postgres';
import t from 'tap';
import { availableConnections, OPERATOR_CONNECTIONS, poolForBudget } from '../lib/connection-budget.js';

/**
 * `npm run start:distributed` with REPLICAS=2 starts 19 processes. postgres.js keeps every connection it
 * opens, so under load each comes to hold its whole pool plus its LISTEN connection: at the default pool of
 * 10 that is 209 connections, and a server left at max_connections 100 refuses the rest (every service
 * answers 503). The launcher sizes the pools to the server before it starts anything.
 */
t.test('the default pool is kept when it fits and lowered to what fits when it does not', async (t) => {
  const room = (processes: number, pool: number) => processes * (pool + 1) + OPERATOR_CONNECTIONS;
  t.same(poolForBudget({ processes: 10, available: room(10, 10), maxConnections: 300 }), { pool: 10, lowered: false }, 'room for 10 each');
  t.same(poolForBudget({ processes: 19, available: 96, maxConnections: 100 }), { pool: 3, lowered: true }, 'two of everything on max_connections 100');
  const lowered = poolForBudget({ processes: 19, available: 96, maxConnections: 100 });
  t.ok('pool' in lowered && room(19, lowered.pool) <= 96, 'and they fit, with the operator\'s room');
  t.same(poolForBudget({ processes: 10, available: room(10, 10) - 1, maxConnections: 300 }), { pool: 9, lowered: true }, 'one short: one less each');
  t.match(poolForBudget({ processes: 40, available: 96, maxConnections: 100 }), { error: /40 processes need 120 connections at least .* max_connections 100 .*start fewer replicas/ }, 'not even 2 each');
});

t.test('a DB_POOL_MAX the operator set is kept when it fits, refused with the fix when it does not', async (t) => {
  t.same(poolForBudget({ processes: 19, available: 96, maxConnections: 100, poolMax: '3' }), { pool: 3, lowered: false });
  t.same(poolForBudget({ processes: 2, available: 300, maxConnections: 300, poolMax: '40' }), { pool: 40, lowered: false }, 'more than the default too');
  t.match(poolForBudget({ processes: 19, available: 96, maxConnections: 100, poolMax: '10' }), {
    error: '19 processes × (DB_POOL_MAX 10 + 1) need 209 connections and the server has 96 free of max_connections 100 (5 kept for the operator): raise max_connections or set DB_POOL_MAX to 3 or less',
  });
});

const { DATABASE_URL } = process.env;
t.test('what the server has free: its max_connections less the reserved and those in use', { skip: DATABASE_URL ? false : 'DATABASE_URL is not set: reads a PostgreSQL server (CI second pass)' }, async (t) => {
  const sql = postgres(DATABASE_URL!, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  const before = await availableConnections(sql);
  const [setting] = await sql<{ max: number; reserved: number }[]>`
    select current_setting('max_connections')::int as max, current_setting('superuser_reserved_connections')::int as reserved`;
  t.equal(before.maxConnections, setting!.max);
  t.ok(before.available <= setting!.max - setting!.reserved, 'never more than the unreserved ones');
  // Other test files open and close connections meanwhile: what is certain is that these three count.
  const held = postgres(DATABASE_URL!, { max: 3, onnotice: () => {}, connection: { application_name: 'connection-budget-test' } });
  t.teardown(() => held.end());
  await Promise.all([1, 2, 3].map(() => held`select pg_sleep(0.2)`));
  const after = await availableConnections(sql);
  const [mine] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where application_name = 'connection-budget-test'`;
  t.equal(mine!.n, 3, 'the three connections held stay open');
  t.ok(after.available <= setting!.max - setting!.reserved - 3, `and are not counted free (${after.available} free)`);
});
