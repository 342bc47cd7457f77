import postgres from 'postgres';

/** The part of tap's Test a turn needs: its clock and its end. */
export interface TimedTest {
  teardown(fn: () => unknown): void;
  setTimeout(ms: number): void;
}

/** One advisory lock key for every file of every checkout that shares the PostgreSQL server. */
const FLEET_LOCK = 0x61_73_69_73; // "asis"

/**
 * How a file that boots a fleet of service processes shares the PostgreSQL server with the other files of
 * the pass. `alone`: the fleet needs most of its connections (two replicas of everything hold about 70 of
 * the default max_connections of 100), so no other fleet runs meanwhile. `beside-fleets`: a fleet of one
 * process per service, which fits beside another such fleet but not beside one that runs alone.
 * Files without a fleet take no turn: their one app's pool fits beside anything.
 */
export type ServerShare = 'alone' | 'beside-fleets';

/**
 * Waits for the file's turn on the server (a session advisory lock, exclusive or shared, held until the file
 * ends), then starts the file's clock: the wait is for another file's state, bounded by that file's own
 * timeout (its connection, and so the lock, ends with it), so it does not count against this file's.
 */
export async function takeServerTurn(t: TimedTest, share: ServerShare, timeoutMs: number, serverUrl = process.env.DATABASE_URL): Promise<void> {
  if (!serverUrl) return;
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  t.setTimeout(0);
  if (share === 'alone') await sql`select pg_advisory_lock(${FLEET_LOCK})`;
  else await sql`select pg_advisory_lock_shared(${FLEET_LOCK})`;
  t.setTimeout(timeoutMs);
}
