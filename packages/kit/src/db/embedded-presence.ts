import { readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';

/**
 * Which process holds an embedded data directory open, and where its database answers. PGlite takes no lock
 * of its own: two instances on one directory would corrupt it. The holder writes this file next to `pg/`;
 * an operator command reads it to reach the running database (a backup) or to refuse to touch it (a restore).
 */
export interface EmbeddedPresence {
  pid: number;
  /** The loopback socket of the holder's PGlite (a second client may connect while it runs). */
  url: string;
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

/** The process holding `dataDir` open, if one is alive and its database answers; a stale file (a crash) is ignored. */
export async function runningEmbedded(dataDir: string): Promise<EmbeddedPresence | undefined> {
  let presence: EmbeddedPresence;
  try {
    presence = JSON.parse(await readFile(path.join(dataDir, PRESENCE_FILE), 'utf8')) as EmbeddedPresence;
  } catch {
    return undefined;
  }
  if (!processAlive(presence.pid)) return undefined;
  return (await answers(presence.url)) ? presence : undefined;
}

/** Throws DataDirInUseError when another live process holds `dataDir`: call it before opening the files. */
export async function assertDataDirFree(dataDir: string): Promise<void> {
  const holder = await runningEmbedded(dataDir);
  if (holder) throw new DataDirInUseError(dataDir, holder);
}

/** Marks `dataDir` as held by this process, its database at `url`; returns what removes the mark on close. */
export async function announceEmbedded(dataDir: string, url: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, PRESENCE_FILE);
  await writeFile(file, JSON.stringify({ pid: process.pid, url } satisfies EmbeddedPresence), { mode: 0o600 });
  return () => rm(file, { force: true });
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
