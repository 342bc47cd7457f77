import t from 'tap';
import { CoalescedRead } from '../src/index.js';

/** A read the test finishes by hand, counting how many were started. */
function manualReads() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  let started = 0;
  const load = () =>
    new Promise<number>((resolve, reject) => {
      started++;
      pending.push({ resolve, reject });
    });
  return { load, pending, started: () => started };
}

t.test('a lone caller reads at once, and a later caller reads again', async (t) => {
  const reads = new CoalescedRead<number>();
  const m = manualReads();
  const first = reads.read('k', m.load);
  t.equal(m.started(), 1);
  m.pending.shift()!.resolve(1);
  t.equal(await first, 1);
  const second = reads.read('k', m.load);
  t.equal(m.started(), 2, 'nothing is kept once a read is over');
  m.pending.shift()!.resolve(2);
  t.equal(await second, 2);
});

t.test('callers arriving during a read share the next one, never the read begun before they asked', async (t) => {
  const reads = new CoalescedRead<number>();
  const m = manualReads();
  const early = reads.read('k', m.load);
  const late = [reads.read('k', m.load), reads.read('k', m.load), reads.read('k', m.load)];
  t.equal(m.started(), 1, 'the late callers wait: the running read may predate their request');
  m.pending.shift()!.resolve(1);
  t.equal(await early, 1);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(m.started(), 2, 'one read for all the late callers');
  m.pending.shift()!.resolve(2);
  t.same(await Promise.all(late), [2, 2, 2]);
});

t.test('keys do not share reads, and a failed read fails only its own callers', async (t) => {
  const reads = new CoalescedRead<number>();
  const m = manualReads();
  const a = reads.read('a', m.load);
  const b = reads.read('b', m.load);
  t.equal(m.started(), 2);
  const afterA = reads.read('a', m.load);
  m.pending.shift()!.reject(new Error('caída'));
  await t.rejects(a, { message: 'caída' });
  await new Promise((resolve) => setImmediate(resolve));
  m.pending.shift()!.resolve(20);
  t.equal(await b, 20);
  m.pending.shift()!.resolve(10);
  t.equal(await afterA, 10, 'the caller queued behind a failed read gets a read of its own');
});

t.test('share takes a read already running as it is; with none running it reads like read', async (t) => {
  const reads = new CoalescedRead<number>();
  const m = manualReads();
  const first = reads.share('k', m.load);
  const joined = reads.share('k', m.load);
  t.equal(m.started(), 1, 'the second caller shares the running read');
  const fresh = reads.read('k', m.load);
  const sharedAgain = reads.share('k', m.load);
  t.equal(m.started(), 1, 'nothing new starts while the first runs');
  m.pending.shift()!.resolve(1);
  t.same(await Promise.all([first, joined, sharedAgain]), [1, 1, 1], 'share never waits for the next read');
  t.equal(m.started(), 2, 'read still gets a read begun after it asked');
  m.pending.shift()!.resolve(2);
  t.equal(await fresh, 2);
});
