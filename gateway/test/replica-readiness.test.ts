import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { ReplicaReadiness, SLOW_GRACE_MS } from '../src/replica-readiness.js';

/**
 * A replica whose /ready answers as told: ready, not ready (503), or not at all. `late` settles when it
 * holds a probe unanswered, so "late" is a state the test waits for, not a clock.
 */
async function replica(t: { teardown(fn: () => unknown): void }) {
  let mode: 'ready' | 'not-ready' | 'hang' = 'ready';
  const held: (() => void)[] = [];
  let holding = () => {};
  const server: Server = createServer((_request, response) => {
    if (mode !== 'hang') return void response.writeHead(mode === 'ready' ? 200 : 503).end();
    held.push(() => response.end());
    holding();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    held.forEach((release) => release());
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next: typeof mode) => (mode = next),
    late: () => new Promise<void>((resolve) => (holding = resolve)),
  };
}

async function goneUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

t.test('a replica that answered ready and now only answers late stays ready for the grace, then not', async (t) => {
  let now = 1_000_000;
  const busy = await replica(t);
  const readiness = new ReplicaReadiness(() => now, busy.late);
  t.equal(await readiness.ready(busy.url), true, 'ready while it answers');
  busy.set('hang');
  now += SLOW_GRACE_MS - 1;
  t.equal(await readiness.ready(busy.url), true, 'a late answer within the grace: busy, still ready');
  now += 2;
  t.equal(await readiness.ready(busy.url), false, 'late past the grace: not ready');
});

t.test('a replica never seen ready that answers late is not ready', async (t) => {
  const busy = await replica(t);
  busy.set('hang');
  t.equal(await new ReplicaReadiness(Date.now, busy.late).ready(busy.url), false);
});

t.test('a replica that refuses or says not ready counts at once, whatever it answered before', async (t) => {
  const other = await replica(t);
  const readiness = new ReplicaReadiness(Date.now, other.late);
  t.equal(await readiness.ready(other.url), true);
  other.set('not-ready');
  t.equal(await readiness.ready(other.url), false, 'a 503 from /ready');
  other.set('hang');
  t.equal(await readiness.ready(other.url), false, 'late after a 503: the earlier ready was forgotten');
  t.equal(await readiness.ready(await goneUrl()), false, 'a refused connection');
});

t.test('a service is ready while any of its replicas is', async (t) => {
  const live = await replica(t);
  const readiness = new ReplicaReadiness(Date.now, live.late);
  const gone = await goneUrl();
  t.equal(await readiness.anyReady([gone, live.url]), true);
  live.set('not-ready');
  t.equal(await readiness.anyReady([gone, live.url]), false);
});
