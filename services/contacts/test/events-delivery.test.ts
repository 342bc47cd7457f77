import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import contactsService from '../src/app.js';

const NATS_SERVER = '/usr/sbin/nats-server';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

if (!existsSync(NATS_SERVER)) {
  if (process.env.CI) t.fail(`${NATS_SERVER} is missing: .ci/run should have installed nats-server`);
  else t.test('NATS outage', { skip: `${NATS_SERVER} is missing: install Debian's nats-server to run the JetStream outage test` }, () => {});
} else {
  t.test('NATS down: writes succeed; once it is back every event is published exactly once', async (t) => {
    const port = await freePort();
    const natsUrl = `nats://127.0.0.1:${port}`;
    const platform = await createTestPlatform(t, { config: { NATS_URL: natsUrl } });
    const app = await buildServiceApp(t, contactsService, platform);
    const { authorization } = signToken(app);

    for (const name of ['Uno', 'Dos', 'Tres']) {
      const res = await app.inject({ method: 'POST', url: '/contacts', headers: { authorization }, payload: { firstName: name, lastName: 'Prueba' } });
      t.equal(res.statusCode, 201, `write while NATS is down: ${name}`);
    }
    const ready = await app.inject({ url: '/contacts', headers: { authorization } });
    t.equal(ready.json().total, 3);
    const pending = async () =>
      Number((await platform.db.sql<{ n: string }[]>`select count(*) as n from contacts.outbox where published_at is null`)[0]!.n);
    t.equal(await pending(), 3, 'events wait in the outbox');

    const store = mkdtempSync(path.join(tmpdir(), 'nats-'));
    const nats: ChildProcess = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    t.teardown(() => {
      nats.kill();
      rmSync(store, { recursive: true, force: true });
    });

    await until(async () => (await pending()) === 0, 'the relay to publish the backlog');
    const nc = await connect({ servers: natsUrl });
    t.teardown(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const stream = platform.config.NATS_STREAM;
    t.equal((await jsm.streams.info(stream)).state.messages, 3, 'three events in the stream');

    // A relay that dies after publishing but before marking republishes: JetStream drops the copy.
    await platform.db.sql`update contacts.outbox set published_at = null`;
    await platform.relay.drain();
    t.equal((await jsm.streams.info(stream)).state.messages, 3, 'republishing adds no duplicate');

    const subjects = [];
    for (let seq = 1; seq <= 3; seq++) subjects.push((await jsm.streams.getMessage(stream, { seq }))!.subject);
    t.same(subjects, Array(3).fill(`${platform.config.EVENTS_SUBJECT_PREFIX}.contacts.contact.created`));
    await jsm.streams.delete(stream);
  });
}
