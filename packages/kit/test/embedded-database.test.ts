import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { startEmbeddedPostgres } from '../src/db/embedded.js';

/**
 * The embedded database (PGlite) runs in a worker thread: its work is synchronous WASM, and in the main
 * thread it stalled every request, timer and socket of the process while a query ran.
 */

t.test('a long query leaves the event loop free', async (t) => {
  const db = await startEmbeddedPostgres('memory://');
  t.teardown(() => db.stop());
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  await sql`select 1`;

  let finished = false;
  // About a second of PGlite's work (baseline WebAssembly): hundreds of thousands of a free loop's turns. Every
  // turn below spins this thread while the worker computes, so a longer query costs the machine twice.
  const query = sql<{ n: number }[]>`select count(*)::int as n from generate_series(1, 1000000)`.then((rows) => {
    finished = true;
    return rows;
  });
  // Turns of the event loop while the query runs: in the main thread the query would take all of them
  // (a handful at most, before and after); beside it, the loop keeps turning.
  let turns = 0;
  while (!finished) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  t.ok(turns > 100, `the event loop turned ${turns} times while the query ran`);
  const [row] = await query;
  t.equal(row?.n, 1_000_000);
});

t.test('data on disk survives a stop and a start', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'asistente-embedded-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = await startEmbeddedPostgres(dir);
  const write = postgres(first.url, { max: 1, onnotice: () => {} });
  await write`create table kept (v text)`;
  await write`insert into kept values ('guardado')`;
  await write.end();
  await Promise.all([first.stop(), first.stop()]);
  await first.stop();
  t.pass('stopping twice, at once or later, is the same stop');

  const second = await startEmbeddedPostgres(dir);
  t.teardown(() => second.stop());
  const read = postgres(second.url, { max: 1, onnotice: () => {} });
  t.teardown(() => read.end());
  t.same(await read`select v from kept`, [{ v: 'guardado' }]);
});

t.test('a dump loads as the template of another database', async (t) => {
  const source = await startEmbeddedPostgres('memory://');
  const write = postgres(source.url, { max: 1, onnotice: () => {} });
  await write`create table seeded (n int)`;
  await write`insert into seeded values (7)`;
  await write.end();
  const dump = await source.dump();
  await source.stop();
  t.ok(dump.size > 0, 'the dump has the data directory');

  const copy = await startEmbeddedPostgres('memory://', dump);
  t.teardown(() => copy.stop());
  const read = postgres(copy.url, { max: 1, onnotice: () => {} });
  t.teardown(() => read.end());
  t.same(await read`select n from seeded`, [{ n: 7 }]);
});
