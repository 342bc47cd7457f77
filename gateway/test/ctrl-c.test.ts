// Ctrl+C on `npm start` as a terminal sends it (SIGINT to npm and node together, npm passing its copy on), once and twice: the only file that goes through npm and the built app.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { runningEmbedded, staleEmbedded } from '@asistente/kit';
import { migratedDataDir } from '@asistente/kit/testing/migrated-data-dir';
import { openStream } from './support/live-stream.js';
import { IN_FLIGHT_GRACE_MS } from '../../packages/kit/src/shutdown.js';
import { runCli } from '../../cli/test/support/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = path.join(root, 'gateway/dist/main.js');
const SKIP = process.env.DATABASE_URL
  ? 'the embedded topology only: it runs once, in the embedded pass'
  : existsSync(BUILT)
    ? false
    : 'run npm run build first: this test runs the built app, as npm start does';
/** The process's own promise (HARD_DEADLINE_MS and a margin for a busy machine). */
const LIMIT_MS = 10_000;

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface NpmStart {
  npm: ChildProcess;
  output: string[];
  /** The process group npm leads (node runs in it too, as in a terminal). */
  group: number;
}

/** `npm start` in a process group of its own, as a terminal runs it (prestart's build skipped: it is built). */
function npmStart(env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start', '--ignore-scripts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', SCRYPT_COST: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  npm.stdout!.on('data', keep);
  npm.stderr!.on('data', keep);
  return { npm, output, group: npm.pid! };
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

const ctrlC = (group: number) => process.kill(-group, 'SIGINT');

async function ready(start: NpmStart, port: number): Promise<void> {
  await until(`ready on :${port}\n${start.output.slice(-20).join('\n')}`, () => fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false), 90_000);
}

/** A request in flight that never completes: its body announced and never sent. */
async function requestInFlight(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{');
  return socket;
}

t.test('npm start: Ctrl+C closes the embedded database whatever is open, a second one at once; the reset command works right after', { skip: SKIP }, async (t) => {
  const dataDir = await migratedDataDir('ctrl-c-');
  const groups: number[] = [];
  t.teardown(() => {
    for (const group of groups) if (groupAlive(group)) process.kill(-group, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  // A WhatsApp server that takes the connection and never answers: the attempt stays under way.
  const silent: Socket[] = [];
  const whatsapp = createServer((socket) => silent.push(socket));
  const whatsappPort = await listening(whatsapp);
  t.teardown(() => {
    silent.forEach((socket) => socket.destroy());
    whatsapp.close();
  });
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), WHATSAPP_WS_URL: `ws://127.0.0.1:${whatsappPort}/ws/chat` };
  const api = (route: string, token?: string, body?: object) =>
    fetch(`http://127.0.0.1:${port}/api/${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const closedCleanly = async (t: Test, what: string) => {
    t.notOk(existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), `${what}: PGlite closed (no postmaster.pid)`);
    t.notOk(existsSync(path.join(dataDir, 'embedded-db.json')), `${what}: no embedded-db.json`);
    t.equal(await staleEmbedded(dataDir), undefined, `${what}: no lock left`);
    t.equal(await runningEmbedded(dataDir), undefined);
  };

  t.test('one Ctrl+C with a live stream and a WhatsApp connection under way', async (t) => {
    const first = npmStart(env);
    groups.push(first.group);
    await ready(first, port);
    const email = `ana.${randomUUID()}@ejemplo.es`;
    const { token } = (await (await api('auth/register', undefined, { firstName: 'Ana', lastName: 'López', email, password: 'clave-larga-1' })).json()) as { token: string };
    const stream = await openStream(`http://127.0.0.1:${port}/api/analytics/stream`, token);
    // Its request waits for a QR that never comes: in flight when Ctrl+C comes.
    const connecting = api('whatsapp/connect', token, {});
    await until('the WhatsApp connection under way', async () => ((await (await api('whatsapp/status', token)).json()) as { state: string }).state === 'connecting');
    await until('the attempt reached the WhatsApp server', () => silent.length > 0);

    const started = Date.now();
    ctrlC(first.group);
    await until('npm start gone, node included', () => !groupAlive(first.group), LIMIT_MS + 5_000);
    const ms = Date.now() - started;
    t.equal(first.npm.exitCode, 0, 'npm start ends cleanly');
    t.ok(ms < LIMIT_MS, `every process gone ${ms} ms after Ctrl+C`);
    t.comment(`one Ctrl+C: ${ms} ms to exit`);
    t.ok(first.output.some((line) => line.includes('"msg":"shutting down"')), 'the "shutting down" line');
    t.ok(first.output.some((line) => line.includes('Mi Asistente.IA se ha cerrado')), 'and the closing line for the person at the terminal');
    t.notOk(first.output.some((line) => line.includes('stopping now')), "npm's copy of the signal was not taken for a second Ctrl+C");
    t.match(await stream.ended, /event: reconnect/, 'the stream was told to reconnect');
    t.equal((await connecting).status, 503, 'the connect request was answered (try again), not left to hold the stop');
    await closedCleanly(t, 'one Ctrl+C');

    const reset = await runCli(['admin', 'reset-password', email, '--data-dir', dataDir], { env: { PUBLIC_URL: 'https://app.ejemplo.es' } });
    t.equal(reset.code, 0, reset.stderr);
    t.match(reset.stdout, /https:\/\/app\.ejemplo\.es\/restablecer\?token=/, 'the reset command works right after');
    t.equal(reset.stderr, '', 'and finds no lock to warn about');
  });

  t.test('a second Ctrl+C while a request holds the drain: at once, the database still closed', async (t) => {
    const second = npmStart(env);
    groups.push(second.group);
    await ready(second, port);
    const held = await requestInFlight(port);
    t.teardown(() => held.destroy());
    await until('the request in flight', () => second.output.some((line) => line.includes('incoming request') && line.includes('/api/auth/login')));

    const started = Date.now();
    ctrlC(second.group);
    await until('the stop under way', () => second.output.some((line) => line.includes('"msg":"shutting down"')));
    // Pressed until it counts as a second Ctrl+C (a repeat at once is npm's copy of the first).
    while (groupAlive(second.group) && !second.output.some((line) => line.includes('stopping now'))) {
      ctrlC(second.group);
      await sleep(100);
    }
    await until('npm start gone, node included', () => !groupAlive(second.group), LIMIT_MS + 5_000);
    const ms = Date.now() - started;
    t.ok(second.output.some((line) => line.includes('stopping now')), 'the second Ctrl+C stopped it at once');
    t.ok(ms < IN_FLIGHT_GRACE_MS, `gone ${ms} ms after the first Ctrl+C, without waiting out the request's ${IN_FLIGHT_GRACE_MS} ms`);
    t.comment(`two Ctrl+C: ${ms} ms to exit`);
    await closedCleanly(t, 'two Ctrl+C');
  });
});
