import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { createTestPlatform } from '../src/testing/index.js';

/**
 * postgres.js keeps its pool's connections and waiting queries in its own queue (src/queue.js), patched
 * here (patches/postgres+3.4.9.patch). Unpatched, a queue that empties by `remove` (a connection moved from
 * one state to another) kept every shifted slot: under steady load its array grew by one slot a query,
 * forever, and every `remove` scanned it whole (6.7% of the contacts service's CPU after seconds of load).
 */
interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type MakeQueue = <T>(initial?: T[]) => Queue<T>;
const require = createRequire(import.meta.url);
const cjsDir = path.dirname(require.resolve('postgres'));
/** The package ships the queue twice: the ES module the services import, and the CommonJS copy. */
const COPIES: [string, MakeQueue][] = [
  ['ES module', (await import(pathToFileURL(path.join(cjsDir, '..', '..', 'src', 'queue.js')).href)).default as MakeQueue],
  ['CommonJS', require(path.join(cjsDir, 'queue.js')) as MakeQueue],
];

/**
 * An array whose copies (`slice`, through Symbol.species) stay of this class and are remembered: the queue
 * copies the array it starts from, so the longest one it ever held can be read after the fact.
 */
class WatchedArray<T> extends Array<T> {
  static made: WatchedArray<unknown>[] = [];
  constructor(...items: T[]) {
    super(...items);
    WatchedArray.made.push(this as WatchedArray<unknown>);
  }
}

for (const [copy, Queue] of COPIES) {
  t.test(`${copy}: a queue drained by remove under steady use keeps no trail of empty slots`, async (t) => {
    WatchedArray.made = [];
    const queue = Queue<number>(new WatchedArray<number>());
    // The pool's pattern: a connection is taken (shift) while another waits, and the waiting one is then
    // moved elsewhere (remove), so the queue is never emptied by a shift.
    let wrong = 0;
    for (let i = 0; i < 20_000; i++) {
      queue.push(2 * i);
      queue.push(2 * i + 1);
      if (queue.shift() !== 2 * i) wrong++;
      if (queue.remove(2 * i + 1) !== 2 * i + 1) wrong++;
    }
    t.equal(wrong, 0, 'first in, first out, and the waiting one removed, every round');
    t.equal(queue.length, 0);
    const longest = Math.max(...WatchedArray.made.map((xs) => xs.length));
    t.ok(longest <= 64, `the queue's array never held more than a few slots (longest ${longest}, after 20,000 rounds)`);
  });

  t.test(`${copy}: order, length and remove stay right across compactions`, async (t) => {
    const queue = Queue<number>();
    const model: number[] = [];
    let next = 0;
    // A fixed mix of pushes, shifts and removes (from the middle too), checked against a plain array.
    for (let step = 0; step < 5_000; step++) {
      const kind = step % 7;
      if (kind < 4) {
        model.push(next);
        queue.push(next++);
      } else if (kind < 6) {
        if (queue.shift() !== model.shift()) return t.fail(`shift differs at step ${step}`);
      } else {
        const victim = model[Math.floor(model.length / 2)];
        if (victim === undefined) continue;
        model.splice(model.indexOf(victim), 1);
        if (queue.remove(victim) !== victim) return t.fail(`remove differs at step ${step}`);
      }
      if (queue.length !== model.length) return t.fail(`length differs at step ${step}`);
    }
    t.equal(queue.remove(-1), null, 'removing what is not there answers null');
    const rest: (number | undefined)[] = [];
    while (queue.length) rest.push(queue.shift());
    t.same(rest, model, 'what is left comes out in order');
  });
}

t.test('the patched pool answers every query right under more callers than connections', async (t) => {
  const platform = await createTestPlatform(t);
  const { sql } = platform.db;
  const callers = 50;
  const rounds = 40;
  const wrong: string[] = [];
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      for (let round = 0; round < rounds; round++) {
        const [row] = await sql<{ n: number }[]>`select ${caller * 1000 + round}::int as n`;
        if (row?.n !== caller * 1000 + round) wrong.push(`${caller}/${round}: ${row?.n}`);
      }
    }),
  );
  t.same(wrong, [], `${callers * rounds} queries, each with its own answer`);
});
