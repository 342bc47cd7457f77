// `npm run start:distributed` itself, after a kill and restart of every service, stopped by SIGTERM, SIGINT, two SIGINTs and SIGKILL (of it, or of the program that started it): 0 processes left each time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import t, { type Test } from 'tap';
import { generateKey, HARD_DEADLINE_MS } from '@asistente/kit';
import { createTestDatabase, takeServerTurn } from '@asistente/kit/testing';
import { ROUTES } from '../../gateway/src/routing-table.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const LAUNCHER = path.join(root, 'scripts/start-distributed.js');
const { DATABASE_URL = '', NATS_URL = '' } = process.env;
const SKIP =
  !DATABASE_URL || !NATS_URL
    ? 'set DATABASE_URL and NATS_URL: the launcher runs the distributed topology'
    : !existsSync(path.join(root, 'gateway/dist/main.js'))
      ? 'run npm run build first: the launcher starts the built services'
      : false;
/** The launcher's own deadline (every child's, then a second before SIGKILL) and a margin for a busy machine. */
const ALL_GONE_MS = HARD_DEADLINE_MS + 6_000;
const SERVICES = ROUTES.map((route) => route.name);

// Four stacks of ten processes, each booted twice: never beside the fleet that needs the server alone (the
// launcher sizes its pools to the connections left). Beside the other test files on two slow cores, the
// file takes several times its ~90 s, although every wait in it is for a state.
if (!SKIP) await takeServerTurn(t, 'beside-fleets', 900_000);

/**
 * Waits for a state of the stack. A launcher that exited will never reach it: that fails at once, with the
 * launcher's last lines. The deadline only bounds a stack that is stuck, so it is sized for a slow machine.
 */
async function until(what: string, condition: () => boolean | Promise<boolean>, stack: Stack, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const tail = () => `\n${stack.lines.slice(-20).join('\n')}`;
  while (!(await condition())) {
    if (stack.launcher.exitCode !== null) throw new Error(`the launcher exited (${stack.launcher.exitCode}) before ${what}${tail()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${tail()}`);
    await sleep(50);
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A SERVICE_PORT_BASE whose nine service ports and the gateway's (the base itself) are free, below Linux's
 * ephemeral range (32768 up): a port there can be taken by any outgoing connection between this check and
 * the listen (a gateway then failed on EADDRINUSE at 59000 for four minutes of restarts).
 */
async function freePortBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + 1_000 * Math.floor(Math.random() * 12);
    const ports = [base, ...ROUTES.map((route) => base + route.port - 3000)];
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
}

/** Every process whose environment carries `marker` (the launcher and all it started), by pid, with its command line. */
async function processesWith(marker: string): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').includes(marker)) continue;
      found.set(Number(entry), (await readFile(`/proc/${entry}/cmdline`, 'latin1')).replaceAll('\0', ' '));
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

interface Stack {
  launcher: ChildProcess;
  lines: string[];
  marker: string;
  gatewayPort: number;
  has(text: string): boolean;
}

/** The shared environment of the test: a database, JetStream names of its own, secrets; one stack at a time. */
async function environment(t: Test) {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const suffix = randomBytes(4).toString('hex');
  const streams: string[] = [];
  const nc = await natsConnect({ servers: NATS_URL });
  t.teardown(async () => {
    const manager = await jetstreamManager(nc);
    for (const stream of streams) await manager.streams.delete(stream).catch(() => undefined);
    await nc.close();
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'stop-distributed-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const common = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATABASE_URL: database.url!,
    NATS_URL,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `k1:${generateKey()}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  let stacks = 0;
  return {
    /**
     * The launcher as a terminal starts it (a process group of its own), its stream and ports its own. With
     * `spawner`, a program between: it starts the launcher over an IPC channel, as a test or a benchmark does,
     * and is `stack.launcher` (its output is the launcher's).
     */
    async start(t: Test, { spawner = false } = {}): Promise<Stack> {
      const stream = `STOP_${suffix}_${++stacks}`;
      streams.push(stream);
      const base = await freePortBase();
      const env = { ...common, NATS_STREAM: stream, EVENTS_SUBJECT_PREFIX: `stop${suffix}${stacks}`, SERVICE_PORT_BASE: String(base), PORT: String(base) };
      const args = spawner ? ['-e', SPAWNER, LAUNCHER] : [LAUNCHER];
      const launcher = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const lines: string[] = [];
      const keep = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
      launcher.stdout!.on('data', keep);
      launcher.stderr!.on('data', keep);
      const marker = `NATS_STREAM=${stream}`;
      // Whatever happens to the test: nothing of this stack outlives it.
      t.teardown(async () => {
        for (const pid of (await processesWith(marker)).keys()) process.kill(pid, 'SIGKILL');
      });
      return { launcher, lines, marker, gatewayPort: base, has: (text) => lines.some((line) => line.includes(text)) };
    },
  };
}

/** Waits until a process of every service runs; resolves with the first found of each, by service. */
async function oneOfEach(stack: Stack): Promise<Map<string, number>> {
  const first = new Map<string, number>();
  await until('a process of every service', async () => {
    for (const [pid, command] of await processesWith(stack.marker)) {
      const service = SERVICES.find((name) => command.includes(`services/${name}/dist/server.js`));
      if (service && !first.has(service)) first.set(service, pid);
    }
    return first.size === SERVICES.length;
  }, stack);
  return first;
}

/** Kills one process of every service and waits until the launcher has started each again. */
async function killOneOfEach(stack: Stack): Promise<Map<string, number>> {
  const first = await oneOfEach(stack);
  for (const pid of first.values()) process.kill(pid, 'SIGKILL');
  await until('every service restarted', () => SERVICES.every((name) => stack.has(`start-distributed: ${name} restarted (pid`)), stack);
  return first;
}

/** Waits until no process of the stack is left; resolves with how long that took. */
async function allGone(t: Test, stack: Stack, from: number): Promise<number> {
  let left = new Map<number, string>();
  const deadline = from + ALL_GONE_MS;
  do {
    left = await processesWith(stack.marker);
    if (left.size === 0) break;
    await sleep(100);
  } while (Date.now() < deadline);
  const ms = Date.now() - from;
  t.equal(left.size, 0, `0 processes left (${ms} ms after the stop)${left.size ? `: ${[...left.values()].join('; ')}` : ''}`);
  return ms;
}

/**
 * A request in flight at the gateway that never completes: its headers begun, never ended, so the gateway
 * holds it itself (a whole head would be passed on, and a service's own stop could answer it at once) and
 * its drain waits for it until the in-flight grace cuts it.
 */
async function holdTheGateway(stack: Stack): Promise<Socket> {
  const socket = connect(stack.gatewayPort, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n');
  return socket;
}

/** A program that starts the launcher over an IPC channel, passes its output on and waits. */
const SPAWNER = `
const { spawn } = require('node:child_process');
spawn(process.execPath, [process.argv[1]], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
setInterval(() => {}, 60_000);
`;

const signalLauncher = (stack: Stack, signal: NodeJS.Signals) => process.kill(stack.launcher.pid!, signal);

/**
 * Every restarted replica serving again: the gateway's /ready answers 200 only when each service behind it
 * does. (The launcher's ready line is from the first start: a request held right after the kills could meet a
 * replica not listening yet, be answered at once, and leave no drain for a second Ctrl+C to cut.)
 */
const readyAgain = (stack: Stack) =>
  until('the stack ready again', () => fetch(`http://127.0.0.1:${stack.gatewayPort}/ready`).then((r) => r.ok, () => false), stack);

t.test('start:distributed leaves no process behind, however it is stopped, after every service was killed and restarted', { skip: SKIP }, async (t) => {
  const env = await environment(t);

  t.test('SIGTERM with the restarted replicas serving', async (t) => {
    const stack = await env.start(t);
    await killOneOfEach(stack);
    await readyAgain(stack);
    const stopped = Date.now();
    signalLauncher(stack, 'SIGTERM');
    t.comment(`SIGTERM: ${await allGone(t, stack, stopped)} ms`);
    t.equal(stack.launcher.exitCode, 0, 'the launcher exits cleanly');
  });

  t.test('SIGINT while the restarted replicas are still starting', async (t) => {
    const stack = await env.start(t);
    await killOneOfEach(stack);
    const stopped = Date.now();
    signalLauncher(stack, 'SIGINT');
    t.comment(`SIGINT: ${await allGone(t, stack, stopped)} ms`);
  });

  t.test('two SIGINTs (a second Ctrl+C) while the gateway drains a request: every child killed at once', async (t) => {
    const stack = await env.start(t);
    await killOneOfEach(stack);
    await readyAgain(stack);
    const held = await holdTheGateway(stack);
    t.teardown(() => held.destroy());
    signalLauncher(stack, 'SIGINT');
    await until('the stop under way', () => stack.has('start-distributed: SIGINT: stopping every process'), stack);
    // Pressed until it counts as a second one (a repeat at once is the same Ctrl+C, passed on by npm).
    while (!stack.has('start-distributed: SIGINT again: killing every process') && stack.launcher.exitCode === null) {
      signalLauncher(stack, 'SIGINT');
      await sleep(100);
    }
    const killed = Date.now();
    t.ok(stack.has('SIGINT again: killing every process'), 'the second SIGINT killed them');
    const ms = await allGone(t, stack, killed);
    t.ok(ms < 2_000, `gone ${ms} ms after the second SIGINT, not after the gateway's drain`);
    t.comment(`second SIGINT: ${ms} ms`);
  });

  t.test('the program that started the launcher killed while the services start: the launcher stops them', async (t) => {
    const stack = await env.start(t, { spawner: true });
    await oneOfEach(stack);
    const killed = Date.now();
    signalLauncher(stack, 'SIGKILL');
    t.comment(`SIGKILL of the launcher's parent: ${await allGone(t, stack, killed)} ms`);
    t.ok(stack.has('start-distributed: the process that started it has gone: stopping every process'), 'the launcher said why it stopped');
  });

  t.test('SIGKILL of the launcher: its children notice and stop', async (t) => {
    const stack = await env.start(t);
    await killOneOfEach(stack);
    await readyAgain(stack);
    const killed = Date.now();
    signalLauncher(stack, 'SIGKILL');
    t.comment(`SIGKILL of the launcher: ${await allGone(t, stack, killed)} ms`);
  });
});
