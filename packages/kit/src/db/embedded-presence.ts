import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * Which process holds an embedded data directory open, and where its database answers. PGlite takes no lock
 * of its own: two instances on one directory would corrupt it, and its postmaster.pid names no real process.
 * The holder writes this file next to `pg/` before PGlite starts and removes it after PGlite has closed; an
 * operator command reads it to reach the running database (a backup), to refuse to touch it (a restore), or
 * to see that the process that left it is gone (a stale lock, after a crash).
 */
export interface EmbeddedPresence {
  pid: number;
  /** The loopback socket of the holder's PGlite (a second client may connect while it runs); none while it starts. */
  url?: string;
}

export const PRESENCE_FILE = 'embedded-db.json';

/** The data directory is in use by another process. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly presence: EmbeddedPresence,
  ) {
    super(`The data directory ${dataDir} is in use by process ${presence.pid}`);
    this.name = 'DataDirInUseError';
  }
}

/** The process holding `dataDir` open, if one is alive and its database answers (or is starting); a stale file (a crash) is ignored. */
export async function runningEmbedded(dataDir: string): Promise<EmbeddedPresence | undefined> {
  const presence = await readPresence(dataDir);
  if (!presence || !processAlive(presence.pid)) return undefined;
  // Alive with no address yet: its PGlite is starting. Alive with one that does not answer: the pid was reused.
  return presence.url === undefined || (await answers(presence.url)) ? presence : undefined;
}

/** What a process that ended without closing the embedded database left in `dataDir`. */
export interface StaleLock {
  /** The process that held it, when its embedded-db.json is there. */
  pid: number | undefined;
}

/**
 * The lock a process left when it ended without closing the embedded database (killed, crashed): its
 * embedded-db.json or PGlite's postmaster.pid, with no live process behind them. Undefined when nothing is
 * left or a live process holds the directory. PGlite recovers such a directory when it next opens it.
 */
export async function staleEmbedded(dataDir: string): Promise<StaleLock | undefined> {
  if (await runningEmbedded(dataDir)) return undefined;
  const presence = await readPresence(dataDir);
  if (presence) return { pid: presence.pid };
  // A postmaster.pid alone: left by a version that wrote embedded-db.json only after PGlite had started.
  return (await exists(path.join(dataDir, 'pg', 'postmaster.pid'))) ? { pid: undefined } : undefined;
}

/** Throws DataDirInUseError when another live process holds `dataDir`: call it before opening the files. With `log`, a stale lock is logged. */
export async function assertDataDirFree(dataDir: string, log?: Logger): Promise<void> {
  const holder = await runningEmbedded(dataDir);
  if (holder) throw new DataDirInUseError(dataDir, holder);
  if (!log) return;
  const stale = await staleEmbedded(dataDir);
  if (stale) log.warn({ dataDir, pid: stale.pid }, 'the embedded database was left open by a process that is gone; PGlite recovers it');
}

/**
 * Marks `dataDir` as held by this process: before PGlite starts (no `url`), then again with its database's
 * `url`. Returns what removes the mark, once PGlite has closed.
 */
export async function announceEmbedded(dataDir: string, url?: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, PRESENCE_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify({ pid: process.pid, url } satisfies EmbeddedPresence), { mode: 0o600 });
  return () => rm(file, { force: true });
}

async function readPresence(dataDir: string): Promise<EmbeddedPresence | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, PRESENCE_FILE), 'utf8')) as EmbeddedPresence;
  } catch {
    return undefined;
  }
}

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
