// The lease loop alone, on an in-memory store: claims, renewals, lost leases, takeover and release, with no service or database.
import t from 'tap';
import { createLogger, LeaseLoop, type LeaseStore } from '../src/index.js';
import { waitUntil } from '../src/testing/index.js';

const log = createLogger('silent', 'test');
const TIMING = { ttlMs: 1_000, tickMs: 5 };

interface Row {
  wanted: boolean;
  owner?: string | undefined;
  until?: number | undefined;
}

/** The lease columns of a table, in memory, on a clock the test moves by hand. */
class FakeLeases implements LeaseStore {
  now = 0;
  readonly rows = new Map<string, Row>();

  constructor(ids: string[]) {
    for (const id of ids) this.rows.set(id, { wanted: true });
  }

  async renew(owner: string, ttlMs: number): Promise<string[]> {
    const held = [...this.rows].filter(([, row]) => row.owner === owner && row.wanted);
    for (const [, row] of held) row.until = this.now + ttlMs;
    return held.map(([id]) => id);
  }

  async claim(owner: string, ttlMs: number, options: { id?: string; force?: boolean } = {}): Promise<string[]> {
    const free = (row: Row) => row.owner === undefined || row.owner === owner || (row.until ?? 0) < this.now;
    const taken = [...this.rows].filter(([id, row]) => row.wanted && (!options.id || id === options.id) && (options.force || free(row)));
    for (const [, row] of taken) Object.assign(row, { owner, until: this.now + ttlMs });
    return taken.map(([id]) => id);
  }

  async release(owner: string, id?: string): Promise<void> {
    for (const [key, row] of this.rows) if (row.owner === owner && (!id || key === id)) Object.assign(row, { owner: undefined, until: undefined });
  }

  holder(id: string): string | undefined {
    return this.rows.get(id)?.owner;
  }
}

class Work {
  isStopped = false;
  started = false;
  constructor(readonly id: string) {}
  start(): void {
    this.started = true;
  }
}

/** A replica's loop on `store`, recording what it stopped and whether it was closing. */
function replica(store: LeaseStore, exclusive = false) {
  const stopped: { id: string; closing: boolean }[] = [];
  let ticks = 0;
  const loop = new LeaseLoop<Work>({
    store,
    timing: TIMING,
    exclusive,
    label: 'test',
    log,
    create: (id) => new Work(id),
    stop: (work, closing) => {
      work.isStopped = true;
      stopped.push({ id: work.id, closing });
    },
    afterTick: () => void ticks++,
  });
  return { loop, stopped, ticks: () => ticks };
}

const running = (loop: LeaseLoop<Work>) => [...loop.values()].filter((w) => w.started && !w.isStopped).map((w) => w.id).sort();

t.test('two replicas share the rows, each row running once; a halted one is taken over only once its leases expire', async (t) => {
  const store = new FakeLeases(['a', 'b', 'c']);
  const one = replica(store);
  one.loop.start();
  await waitUntil(() => running(one.loop).length === 3, 'the first replica holds every row');
  const two = replica(store);
  two.loop.start();
  await waitUntil(() => two.ticks() > 2, 'the second replica ticked');
  t.same(running(two.loop), [], 'live leases are left to their holder');

  await one.loop.halt();
  t.same(one.stopped.map((s) => s.closing), [true, true, true], 'halting stops the work');
  t.equal(store.holder('a'), one.loop.owner, 'a killed replica leaves its leases in place');
  await waitUntil(() => two.ticks() > 5, 'the second replica ticked again');
  t.same(running(two.loop), [], 'not taken before they expire');
  store.now += TIMING.ttlMs + 1;
  await waitUntil(() => running(two.loop).length === 3, 'the second replica took the expired rows');

  await two.loop.close();
  t.same([...store.rows.values()].map((r) => r.owner), [undefined, undefined, undefined], 'closing releases');
});

t.test('a lease lost to another owner, or a row no longer wanted, stops its work; work that ended by itself starts again', async (t) => {
  const store = new FakeLeases(['a', 'b', 'c']);
  const { loop, stopped } = replica(store);
  loop.start();
  await waitUntil(() => running(loop).length === 3, 'every row held');

  store.rows.set('a', { wanted: true, owner: 'another replica', until: store.now + 60_000 });
  store.rows.get('b')!.wanted = false;
  await waitUntil(() => stopped.length === 2, 'the lost work stopped');
  t.same(stopped.sort((x, y) => x.id.localeCompare(y.id)), [{ id: 'a', closing: false }, { id: 'b', closing: false }]);
  t.same(running(loop), ['c']);

  const gaveUp = loop.get('c')!;
  gaveUp.isStopped = true;
  t.notOk(loop.holds('c'), 'ended work is not held');
  await waitUntil(() => loop.get('c') !== gaveUp && loop.holds('c'), 'a new work for the row it still leases');
  await loop.close();
});

t.test('adopt takes one free row at once; take hands the work back without stopping it', async (t) => {
  const store = new FakeLeases(['a', 'b']);
  store.rows.set('b', { wanted: true, owner: 'another replica', until: 60_000 });
  const { loop, stopped } = replica(store);
  t.equal(await loop.adopt('a'), true);
  t.equal(await loop.adopt('b'), false, 'a live lease elsewhere is not taken');
  t.equal(await loop.adopt('b', true), true, 'unless forced');
  t.same(running(loop), ['a', 'b']);

  const work = loop.take('a');
  t.equal(work?.isStopped, false, 'the caller stops it');
  t.equal(loop.get('a'), undefined);
  await loop.release('a');
  t.equal(store.holder('a'), undefined);
  await loop.close();
  t.same(stopped, [{ id: 'b', closing: true }], 'closing stops only what it still runs');
  t.equal(await loop.adopt('a'), false, 'a closed loop takes nothing');
});

t.test('an exclusive replica takes the leases its previous run left behind at once', async (t) => {
  const store = new FakeLeases(['a']);
  store.rows.set('a', { wanted: true, owner: 'previous run', until: 60_000 });
  const { loop } = replica(store, true);
  loop.start();
  await waitUntil(() => loop.holds('a'), 'the row taken on the first tick');
  t.equal(store.holder('a'), loop.owner);
  await loop.close();
});
