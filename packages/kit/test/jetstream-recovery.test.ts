import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import t from 'tap';
import { createEvent, createLogger, JetStreamBus, StreamOwnershipError, type EventEnvelope } from '../src/index.js';

const natsUrl = process.env.NATS_URL;
const skip = natsUrl ? false : 'NATS_URL is not set: these run against a real NATS (CI sets it)';
const log = createLogger('silent', 'test');

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

t.test('NATS that loses the stream and the consumer: both are recreated and events flow again', { skip }, async (t) => {
  if (!natsUrl) return;
  const suffix = randomBytes(4).toString('hex');
  const stream = `RECOVER_${suffix}`;
  const bus = new JetStreamBus({ url: natsUrl, stream, subjectPrefix: `rec${suffix}`, log, watchdogMs: 100, deployment: 'uno' });
  const nc = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(nc);
  t.teardown(async () => {
    await bus.close();
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  });
  await bus.started();
  const seen = new Set<string>();
  await bus.subscribe('analytics', async (events) => {
    for (const e of events) seen.add(e.id);
  });
  const batch = (): EventEnvelope[] => [createEvent('contacts.contact.created', randomUUID(), { contactId: randomUUID(), hasEmail: false })];
  const first = batch();
  await bus.publish(first);
  t.ok(await until(() => seen.has(first[0]!.id)), 'delivered before the loss');

  await jsm.streams.delete(stream);
  t.ok(await until(() => !bus.isReady() || seen.size > 0), 'noticed');
  const second = batch();
  // What the relay does: try, and retry on its next pass.
  let lastError: unknown;
  const published = await until(async () => bus.publish(second).then(() => true, (error: unknown) => ((lastError = error), false)));
  t.ok(published, `publishing works again (stream recreated) ${String(lastError)}`);
  t.ok(bus.isReady(), 'ready again');
  t.ok(await until(() => seen.has(second[0]!.id)), 'the consumer was recreated and got the new event');
});

t.test('a stream created by another deployment refuses this one with one clear message', { skip }, async (t) => {
  if (!natsUrl) return;
  const suffix = randomBytes(4).toString('hex');
  const stream = `OWNED_${suffix}`;
  const owner = new JetStreamBus({ url: natsUrl, stream, subjectPrefix: `own${suffix}`, log, deployment: 'produccion' });
  await owner.started();
  const intruder = new JetStreamBus({ url: natsUrl, stream, subjectPrefix: `own${suffix}`, log, deployment: 'pruebas' });
  t.teardown(async () => {
    await intruder.close();
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
    await owner.close();
  });
  const error = await intruder.started().then(() => undefined, (e: unknown) => e);
  t.type(error, StreamOwnershipError);
  t.match((error as Error).message, /belongs to deployment "produccion", not "pruebas".*DEPLOYMENT_NAME/);
  t.notOk(intruder.isReady());

  const sameSubjects = new JetStreamBus({ url: natsUrl, stream: `${stream}_B`, subjectPrefix: `own${suffix}`, log, deployment: 'otra' });
  t.teardown(() => sameSubjects.close());
  const overlap = await sameSubjects.started().then(() => undefined, (e: unknown) => e);
  t.type(overlap, StreamOwnershipError, 'subjects already taken by another stream');
});

t.test('subscribe returns at once while NATS is unreachable (a service starts and serves without it)', async (t) => {
  const bus = new JetStreamBus({ url: 'nats://127.0.0.1:1', stream: 'NOPE', subjectPrefix: 'nope', log });
  t.teardown(() => bus.close());
  await bus.started(200);
  await bus.subscribe('analytics', async () => {});
  t.notOk(bus.isReady(), 'not ready, and honest about it');
});

const NATS_SERVER = '/usr/sbin/nats-server';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A nats-server of the test's own on `port`, with JetStream (stored in `store`) or without; resolves once it accepts clients. */
async function ownNats(port: number, store: string | undefined): Promise<ChildProcess> {
  const server = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), ...(store ? ['-js', '-sd', store] : [])], { stdio: 'ignore' });
  const up = await until(async () => {
    const nc = await connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false }).catch(() => undefined);
    await nc?.close();
    return nc !== undefined;
  });
  if (!up) throw new Error('nats-server did not start');
  return server;
}

t.test('a NATS whose JetStream does not answer at boot: the bus is not ready, then flows once it answers, no restart', { skip: existsSync(NATS_SERVER) ? false : `no ${NATS_SERVER} here` }, async (t) => {
  const port = await freePort();
  const store = mkdtempSync(path.join(tmpdir(), 'late-jetstream-'));
  t.teardown(() => rmSync(store, { recursive: true, force: true }));
  let server = await ownNats(port, undefined);
  t.teardown(() => void server.kill('SIGKILL'));
  const suffix = randomBytes(4).toString('hex');
  const bus = new JetStreamBus({ url: `nats://127.0.0.1:${port}`, stream: `LATE_${suffix}`, subjectPrefix: `late${suffix}`, log, watchdogMs: 100 });
  t.teardown(() => bus.close());
  await bus.started();
  const seen = new Set<string>();
  await bus.subscribe('analytics', async (events) => {
    for (const e of events) seen.add(e.id);
  });
  t.notOk(bus.isReady(), 'connected, but no stream to publish to: not ready');

  server.kill('SIGKILL');
  await new Promise((resolve) => server.once('exit', resolve));
  server = await ownNats(port, store);
  t.ok(await until(() => bus.isReady()), 'ready once JetStream answers');
  const event = createEvent('contacts.contact.created', randomUUID(), { contactId: randomUUID(), hasEmail: false });
  await bus.publish([event]);
  t.ok(await until(() => seen.has(event.id)), 'the consumer runs and gets the event');
});
