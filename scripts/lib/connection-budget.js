/** What each process holds beyond its pool: the connection that LISTENs (outbox commits, session endings). */
const LISTENERS_PER_PROCESS = 1;
/** Fewer than this per process and a replica waits on its own background work; better to say so and stop. */
const SMALLEST_POOL = 2;
/** The kit's default pool (`DB_POOL_MAX`), used when the server has room for it. */
const DEFAULT_POOL = 10;
/** Left free for the operator: a psql session, a migration, the admin CLI. */
export const OPERATOR_CONNECTIONS = 5;

/**
 * The pool each process may have so that all of them fit the server's connections: postgres.js keeps a
 * connection it opened, so under load each process comes to hold its whole pool, and past the server's
 * `max_connections` every service answers 503. `DB_POOL_MAX` set by the operator is kept, or refused when
 * it cannot fit; unset, it is the default, lowered to what fits.
 * @param {{ processes: number, available: number, maxConnections: number, poolMax?: string }} budget
 * @returns {{ pool: number, lowered: boolean } | { error: string }}
 */
export function poolForBudget({ processes, available, maxConnections, poolMax }) {
  const room = available - OPERATOR_CONNECTIONS;
  const fits = Math.floor(room / processes) - LISTENERS_PER_PROCESS;
  const need = (pool) => processes * (pool + LISTENERS_PER_PROCESS);
  const server = `the server has ${available} free of max_connections ${maxConnections} (${OPERATOR_CONNECTIONS} kept for the operator)`;
  if (poolMax !== undefined && poolMax !== '') {
    const pool = Number(poolMax);
    if (need(pool) <= room) return { pool, lowered: false };
    return {
      error: `${processes} processes × (DB_POOL_MAX ${pool} + ${LISTENERS_PER_PROCESS}) need ${need(pool)} connections and ${server}: raise max_connections or set DB_POOL_MAX to ${Math.max(fits, 1)} or less`,
    };
  }
  if (fits >= DEFAULT_POOL) return { pool: DEFAULT_POOL, lowered: false };
  if (fits >= SMALLEST_POOL) return { pool: fits, lowered: true };
  return {
    error: `${processes} processes need ${need(SMALLEST_POOL)} connections at least (a pool of ${SMALLEST_POOL} each) and ${server}: raise max_connections or start fewer replicas`,
  };
}

/**
 * The connections this launcher's processes may take: the server's `max_connections`, less those reserved
 * for superusers (and `reserved_connections`, PostgreSQL 16) and those other clients hold now.
 * @param {import('postgres').Sql} sql
 * @returns {Promise<{ available: number, maxConnections: number }>}
 */
export async function availableConnections(sql) {
  const [row] = await sql`
    select current_setting('max_connections')::int as max_connections,
           current_setting('superuser_reserved_connections')::int
             + coalesce(current_setting('reserved_connections', true)::int, 0) as reserved,
           (select count(*)::int from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()) as used`;
  return { available: row.max_connections - row.reserved - row.used, maxConnections: row.max_connections };
}
