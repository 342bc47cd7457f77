import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

export interface Session {
  token: string;
  email: string;
}

/** One session per API URL: a token issued by one server is never sent to another. */
interface StoredConfig {
  sessions: Record<string, Session>;
}

/** `$XDG_CONFIG_HOME/asistente/config.json`, else `~/.config/asistente/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'asistente', 'config.json');
}

/** The same server spelled with or without a trailing slash is one session. */
function sessionKey(apiUrl: string): string {
  return new URL(apiUrl).href.replace(/\/+$/, '');
}

async function readConfig(path: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredConfig>;
    return { sessions: parsed.sessions ?? {} };
  } catch {
    throw new CliError(`El archivo de configuración ${path} está dañado: bórralo y vuelve a iniciar sesión`);
  }
}

/**
 * The file holds bearer tokens: created 0600 inside a 0700 directory, and replaced by rename so a crash
 * mid-write never leaves half a file (or a moment where it is readable with looser permissions).
 */
async function writeConfig(path: string, config: StoredConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

export async function readSession(apiUrl: string, path = configPath()): Promise<Session | undefined> {
  return (await readConfig(path)).sessions[sessionKey(apiUrl)];
}

export async function saveSession(apiUrl: string, session: Session, path = configPath()): Promise<void> {
  const config = await readConfig(path);
  config.sessions[sessionKey(apiUrl)] = session;
  await writeConfig(path, config);
}

/** Forgets the session of `apiUrl`; the file goes away with the last one. */
export async function deleteSession(apiUrl: string, path = configPath()): Promise<void> {
  const config = await readConfig(path);
  delete config.sessions[sessionKey(apiUrl)];
  if (Object.keys(config.sessions).length === 0) await rm(path, { force: true });
  else await writeConfig(path, config);
}
