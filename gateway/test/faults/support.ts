import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { createSigner } from 'fast-jwt';
import postgres from 'postgres';
import { generateKey } from '@asistente/kit';
import { createTestDatabase, insertAccount } from '@asistente/kit/testing';

/** Helpers of the fault tests: child processes, a NATS of the test's own, a cuttable path to PostgreSQL. */

export const root = (file: string) => fileURLToPath(new URL(`../../../${file}`, import.meta.url));
export const { DATABASE_URL = '', NATS_URL = '' } = process.env;
export const NATS_SERVER = '/usr/sbin/nats-server';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * Polls until `remaining` reaches 0; fails with `what` once it has not fallen for `stallMs`. For a backlog whose
 * size follows the machine's speed (a load phase of fixed length), where a fixed bound fails the faster machine:
 * a replica delivering 2,000 paced WhatsApp answers is progressing, not stuck.
 */
export async function waitUntilDrained(what: string, remaining: () => Promise<number>, stallMs = 30_000): Promise<void> {
  let least = Infinity;
  let progressAt = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const left = await remaining();
      if (left === 0) return;
      if (left < least) [least, progressAt] = [left, Date.now()];
    } catch (error) {
      last = error;
    }
    if (Date.now() - progressAt > stallMs) {
      throw new Error(`timed out waiting for ${what}: ${least} left, none done in ${stallMs / 1000} s${last ? ` (${String(last)})` : ''}`);
    }
    await sleep(250);
  }
}

/** Polls until `condition` holds; fails with `what` (and the last error) after a generous bound. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Ports below Linux's ephemeral range (32768-60999), where no process's outgoing connection lands. */
const FIXED_PORTS = { from: 20_000, to: 32_000 };
const handedOut = new Set<number>();

/**
 * A port for a process the test starts a moment later. Chosen below the ephemeral range: a port the kernel
 * handed to `listen(0)` can be taken, before the process binds it, by one of the many connections the
 * starting processes open (seen: a WhatsApp replica's EADDRINUSE). Never the same one twice in a file.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = FIXED_PORTS.from + Math.floor(Math.random() * (FIXED_PORTS.to - FIXED_PORTS.from));
    if (handedOut.has(port)) continue;
    const bound = await new Promise<boolean>((resolve) => {
      const server = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (!bound) continue;
    handedOut.add(port);
    return port;
  }
}

export interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  exit: Promise<void>;
}

export function alive(proc: Proc): boolean {
  return proc.child.exitCode === null && proc.child.signalCode === null;
}

/** A child process with only the given environment, killed when the test ends whatever happened. */
export function startProcess(t: Teardown, name: string, command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    if (output.length > 400) output.splice(0, output.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc = { name, child, output, exit };
  t.teardown(() => kill(proc));
  return proc;
}

export async function kill(proc: Proc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!alive(proc)) return;
  proc.child.kill(signal);
  await proc.exit;
}

/**
 * A service or the gateway as production runs it: `node <entry>` on the build `npm test` made first (a
 * TypeScript transform per process cost each start about 0.7 s of CPU, and these files start dozens).
 */
export function startNode(t: Teardown, name: string, entry: string, env: Record<string, string>): Proc {
  return startProcess(t, name, process.execPath, [root(entry)], env);
}

export async function waitReady(proc: Proc, port: number, timeoutMs = 120_000): Promise<void> {
  await waitFor(
    `${proc.name} ready on :${port}`,
    async () => {
      if (!alive(proc)) throw new Error(`${proc.name} exited\n${proc.output.slice(-30).join('\n')}`);
      return fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false);
    },
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${proc.output.slice(-30).join('\n')}`);
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A JetStream NATS of the test's own (the system one cannot be stopped), its store in a temporary folder. */
export class OwnNats {
  private proc: Proc | undefined;
  readonly storeDir: string;

  private constructor(
    private readonly t: Teardown,
    readonly port: number,
  ) {
    this.storeDir = mkdtempSync(path.join(tmpdir(), 'faults-nats-'));
    t.teardown(() => rmSync(this.storeDir, { recursive: true, force: true }));
  }

  static available(): boolean {
    return existsSync(NATS_SERVER);
  }

  static async start(t: Teardown): Promise<OwnNats> {
    const nats = new OwnNats(t, await freePort());
    await nats.restart();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts it again on the same port and store: what it had persisted comes back. */
  async restart(): Promise<void> {
    this.proc = startProcess(this.t, 'nats-server', NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {});
    await waitFor('nats-server listening', async () => {
      if (!alive(this.proc!)) throw new Error(`nats-server exited\n${this.proc!.output.join('\n')}`);
      return portOpen(this.port);
    });
  }

  async kill(): Promise<void> {
    if (this.proc) await kill(this.proc);
    await waitFor('nats-server gone', async () => !(await portOpen(this.port)));
  }
}

/**
 * A TCP path to PostgreSQL the test can cut: `refuse()` drops every open
 * connection and refuses new ones (the database unreachable), `restore()`
 * lets connections through again.
 */
export class CuttablePath {
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  private readonly server: Server;
  port = 0;

  private constructor(private readonly target: URL) {
    this.server = createServer((client) => this.forward(client));
  }

  static async open(t: Teardown, target: URL): Promise<CuttablePath> {
    const path = new CuttablePath(target);
    path.port = await new Promise<number>((resolve) => path.server.listen(0, '127.0.0.1', () => resolve((path.server.address() as { port: number }).port)));
    t.teardown(() => path.close());
    return path;
  }

  private forward(client: Socket): void {
    if (this.refusing) return void client.destroy();
    const upstream = tcpConnect(Number(this.target.port || 5432), this.target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** `url` with its host and port replaced by this path's. */
  through(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  refuse(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.refusing = false;
  }

  private close(): Promise<void> {
    this.refuse();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A user row in auth.users and a token for it signed with `secret`, as auth issues them. */
export async function userWithToken(databaseUrl: string, secret: string): Promise<{ userId: string; authorization: string }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const userId = await insertAccount(sql);
    const sign = createSigner({ key: secret, iss: 'mi-asistente', aud: 'mi-asistente-api', expiresIn: 3_600_000 });
    return { userId, authorization: `Bearer ${sign({ sub: userId, jti: randomUUID(), ims: Date.now() })}` };
  } finally {
    await sql.end();
  }
}

/** Applies the migrations to `databaseUrl` (the deploy step), from source. */
export async function migrateDatabase(t: Teardown, databaseUrl: string): Promise<void> {
  const proc = startNode(t, 'migrate', 'packages/kit/dist/migrate-cli.js', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  await proc.exit;
  if (proc.child.exitCode !== 0) throw new Error(`migrate failed\n${proc.output.join('\n')}`);
}

/**
 * What every process of a distributed test shares: a migrated database and a JetStream stream and subject
 * prefix of the test's own (both gone when it ends), a token secret and a key ring. `name` tells the
 * stream apart in NATS while the test runs.
 */
export async function distributedEnvironment(t: Teardown, name: string) {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  await migrateDatabase(t, database.url!);
  const suffix = randomBytes(4).toString('hex');
  const stream = `${name.toUpperCase()}_${suffix}`;
  const nc = await natsConnect({ servers: NATS_URL });
  t.teardown(async () => {
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });
  const secret = randomBytes(32).toString('hex');
  const env = {
    DATABASE_URL: database.url!,
    NATS_URL,
    NATS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `${name.toLowerCase()}${suffix}`,
    JWT_SECRET: secret,
    SECRETS_KEYS: `k1:${generateKey()}`,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  return { databaseUrl: database.url!, stream, secret, env };
}
