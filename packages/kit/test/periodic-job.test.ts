import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createLogger, eraseOlderData, PeriodicJob, type PeriodicRun } from '../src/index.js';
import { createTestPlatform } from '../src/testing/index.js';

const platform = await createTestPlatform(t);
const { sql } = platform.db;
const log = createLogger('silent', 'test');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A clock the test moves by hand, shared by every replica of a test. */
function clock(start = '2030-01-01T03:00:00Z') {
  let at = new Date(start).getTime();
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

t.test('two replicas asking at once: one runs the day, the other is told it is taken; the next day runs again', async (t) => {
  const time = clock();
  const name = `test.${randomUUID()}`;
  let runs = 0;
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  const work = async () => {
    runs++;
    await holding;
  };
  const a = new PeriodicJob(sql, { name, log, now: time.now }, work);
  const b = new PeriodicJob(sql, { name, log, now: time.now }, work);
  const both = [a.runOnce(), b.runOnce()];
  // One is answered while the other still works: it did not wait for it.
  t.equal(await Promise.race(both), 'skipped');
  release();
  t.same((await Promise.all(both)).sort(), ['ran', 'skipped']);
  t.equal(runs, 1);
  t.same(await Promise.all([a.runOnce(), b.runOnce()]), ['skipped', 'skipped'], 'the day is done');
  time.advance(24 * HOUR);
  const next = await Promise.all([a.runOnce(), b.runOnce()]);
  t.same(next.sort(), ['ran', 'skipped'], 'the next day runs once');
  t.equal(runs, 2);
});

t.test('a replica that died mid-run is taken over once its lease ran out, and the old holder learns it lost the claim', async (t) => {
  const time = clock();
  const name = `test.${randomUUID()}`;
  let held: PeriodicRun | undefined;
  let resume!: () => void;
  const stalled = new Promise<void>((resolve) => (resume = resolve));
  const dying = new PeriodicJob(sql, { name, log, now: time.now, leaseMs: 10 * 60_000 }, async (run) => {
    held = run;
    await stalled;
  });
  let taken = 0;
  const healthy = new PeriodicJob(sql, { name, log, now: time.now, leaseMs: 10 * 60_000 }, async () => void taken++);
  const stuck = dying.runOnce();
  while (!held) await new Promise((resolve) => setImmediate(resolve));
  t.equal(await healthy.runOnce(), 'skipped', 'the lease is still live');
  time.advance(5 * 60_000);
  t.equal(await held.stillHeld(), true, 'renewed by its holder');
  time.advance(7 * 60_000);
  t.equal(await healthy.runOnce(), 'skipped', 'renewed: still live past the first lease');
  time.advance(4 * 60_000);
  t.equal(await healthy.runOnce(), 'ran', 'taken over after the renewed lease ran out');
  t.equal(taken, 1);
  t.equal(await held.stillHeld(), false, 'the old holder has lost it');
  resume();
  await stuck;
  t.equal(await healthy.runOnce(), 'skipped', 'and the day stays done');
});

t.test('eraseOlderData: batches per user until a short one, and stops when the claim is lost', async (t) => {
  await sql`create table if not exists public.retention_probe (user_id uuid primary key, days integer, changed_at timestamptz not null)`;
  const [ana, luis, forever] = [randomUUID(), randomUUID(), randomUUID()];
  await sql`insert into public.retention_probe values (${ana}, 30, now()), (${luis}, 1, now()), (${forever}, null, now())`;
  const left = new Map<string, number>([[ana, 23], [luis, 5], [forever, 9]]);
  const cutoffs = new Map<string, Date[]>();
  const step = {
    name: 'rows',
    erase: async (_tx: unknown, userId: string, before: Date, limit: number) => {
      cutoffs.set(userId, [...(cutoffs.get(userId) ?? []), before]);
      const count = Math.min(limit, left.get(userId)!);
      left.set(userId, left.get(userId)! - count);
      // The next batch of a user starts below the oldest row of this one.
      return { count, oldest: count ? new Date(before.getTime() - DAY) : null };
    },
  };
  const now = new Date('2030-03-31T00:00:00Z');
  const report = await eraseOlderData(sql, 'public.retention_probe', { now, stillHeld: async () => true }, [step], 10);
  t.same(report.erased, { rows: 28 });
  t.equal(report.statements, 3 + 1, 'ana: 10, 10, 3; luis: 5');
  t.ok(report.finished);
  t.same(left.get(forever), 9, 'kept forever: never asked');
  const moved = (iso: string, days: number) => new Date(new Date(iso).getTime() - days * DAY + (days ? 1 : 0));
  t.same(cutoffs.get(ana), [moved('2030-03-01T00:00:00Z', 0), moved('2030-03-01T00:00:00Z', 1), new Date(moved('2030-03-01T00:00:00Z', 1).getTime() - DAY + 1)], '30 days, then below each batch');
  t.same(cutoffs.get(luis), [new Date('2030-03-30T00:00:00Z')]);

  left.set(ana, 50);
  let checks = 0;
  const lost = await eraseOlderData(sql, 'public.retention_probe', { now, stillHeld: async () => ++checks < 2 }, [step], 10);
  t.equal(lost.finished, false);
  t.equal(lost.statements, 2, 'stopped after the batch that found the claim gone');
  await sql`drop table public.retention_probe`;
});
