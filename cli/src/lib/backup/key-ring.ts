import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseKeyring, SecretBox, registeredSecretColumns, sqlSecretStore, verifySecrets, type Keyring, type Sql } from '@asistente/kit';

/** What the product keeps secret with the key ring, as an operator would name it. */
export const SEALED_THINGS = 'las claves de OpenAI, las sesiones de WhatsApp y los accesos a Google, Microsoft y el correo';

export interface FoundRing {
  ring: Keyring;
  /** Where it came from, for the operator: SECRETS_KEYS or the data directory's file. */
  source: string;
}

/** The key ring as the server would take it: SECRETS_KEYS first, else (embedded) `<dataDir>/secrets.keys`. */
export async function findKeyRing(secretsKeys: string | undefined, dataDir?: string): Promise<FoundRing | undefined> {
  if (secretsKeys) return { ring: parseKeyring(secretsKeys), source: 'SECRETS_KEYS' };
  if (!dataDir) return undefined;
  const file = path.join(dataDir, 'secrets.keys');
  try {
    return { ring: parseKeyring(await readFile(file, 'utf8'), file), source: file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export type KeyCheck =
  | { status: 'none-needed' }
  | { status: 'no-ring'; needed: string[] }
  | { status: 'missing'; needed: string[]; missing: string[]; source: string }
  | { status: 'unreadable'; needed: string[]; failed: number; source: string }
  | { status: 'ok'; needed: string[]; secrets: number; source: string };

/** Whether the restored secrets (sealed with the keys `needed`) open with the ring the server will use. */
export async function checkKeys(sql: Sql, needed: string[], found: FoundRing | undefined): Promise<KeyCheck> {
  if (needed.length === 0) return { status: 'none-needed' };
  if (!found) return { status: 'no-ring', needed };
  const missing = needed.filter((id) => found.ring.key(id) === undefined);
  if (missing.length > 0) return { status: 'missing', needed, missing, source: found.source };
  // Same ids are not proof: a ring generated afresh may reuse a date id. Open every secret.
  const columns = await registeredSecretColumns(sql);
  const counts = await verifySecrets({ box: new SecretBox(found.ring), columns, ...sqlSecretStore(sql, columns) });
  if (counts.failed > 0) return { status: 'unreadable', needed, failed: counts.failed, source: found.source };
  return { status: 'ok', needed, secrets: counts.scanned, source: found.source };
}

/** The sentence the operator reads after a restore; undefined when all is well. */
export function keyWarning(check: KeyCheck, where: string): string | undefined {
  const then = `sin ella(s), ${SEALED_THINGS} guardados en la copia no se podrán leer y habrá que volver a conectarlos`;
  switch (check.status) {
    case 'no-ring':
      return `Atención: la copia tiene secretos cifrados con la(s) clave(s) ${check.needed.join(', ')} y no hay anillo de claves (${where}). Pon ahí el anillo que guardaste aparte antes de arrancar el servidor; ${then}.`;
    case 'missing':
      return `Atención: el anillo de claves (${check.source}) no tiene la(s) clave(s) ${check.missing.join(', ')} con las que se cifraron secretos de la copia. Usa el anillo que guardaste aparte; ${then}.`;
    case 'unreadable':
      return `Atención: ${check.failed} secretos de la copia no se descifran con el anillo de claves (${check.source}): no es el mismo anillo con el que se cifraron. Usa el que guardaste aparte; ${then}.`;
    default:
      return undefined;
  }
}

/** Said after every backup: the key ring is not in it, on purpose. */
export function keyReminder(where: string, keyIds: string[]): string {
  const used = keyIds.length > 0 ? ` Los secretos de esta copia están cifrados con la(s) clave(s) ${keyIds.join(', ')}.` : '';
  return `La copia NO incluye el anillo de claves (${where}): guárdalo aparte, en otro lugar seguro. Para restaurar hará falta el mismo anillo; sin él, ${SEALED_THINGS} no se podrán leer.${used}`;
}
