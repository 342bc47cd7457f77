import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * JWT_SECRET when configured; otherwise a secret generated once into the
 * data directory (0600) so tokens survive restarts of the embedded app.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string, log: Logger): Promise<string> {
  if (configured) return configured;
  // An in-memory data dir keeps nothing, so neither does its secret.
  if (dataDir.startsWith('memory://')) return randomBytes(48).toString('base64url');
  const file = path.join(dataDir, 'jwt.secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await chmod(file, 0o600);
  log.info({ file }, 'JWT_SECRET not set: generated a signing secret in the data directory');
  return (await readFile(file, 'utf8')).trim();
}
