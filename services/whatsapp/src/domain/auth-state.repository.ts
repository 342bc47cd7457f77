import { type SecretBox, type SecretContext, type Sql } from '@asistente/kit';
import { WHATSAPP_AUTH_STATE_COLUMN } from './secret-columns.js';
import type { AuthStore } from './whatsapp-socket.js';

export function authStateContext(userId: string): SecretContext {
  return { userId, table: WHATSAPP_AUTH_STATE_COLUMN.table, column: WHATSAPP_AUTH_STATE_COLUMN.column };
}

/**
 * `whatsapp.auth_state`: Baileys' creds and signal keys, one sealed row per key. Writes upsert only the keys
 * that changed; a failed write throws, so the socket's event handler surfaces it instead of losing a key.
 */
export class AuthStateRepository {
  constructor(
    private readonly sql: Sql,
    private readonly box: SecretBox,
  ) {}

  /** The store one account's socket reads and writes. */
  storeFor(userId: string, onDecryptFailure: () => void): AuthStore {
    const context = authStateContext(userId);
    return {
      get: async (keys) => {
        const rows = await this.sql<{ key: string; valueEnc: string }[]>`
          select key, value_enc from whatsapp.auth_state where user_id = ${userId} and key in ${this.sql(keys)}`;
        const found = new Map<string, string>();
        for (const row of rows) {
          try {
            found.set(row.key, this.box.open(row.valueEnc, context));
          } catch {
            // An unreadable row (lost key) reads as absent: Baileys renegotiates that key instead of crashing.
            onDecryptFailure();
          }
        }
        return found;
      },
      set: async (entries) => {
        const upserts = [...entries].filter((e): e is [string, string] => e[1] !== null);
        const deletes = [...entries].filter(([, v]) => v === null).map(([k]) => k);
        await this.sql.begin(async (tx) => {
          if (upserts.length) {
            const rows = upserts.map(([key, value]) => ({ userId, key, valueEnc: this.box.seal(value, context) }));
            await tx`
              insert into whatsapp.auth_state ${tx(rows, 'userId', 'key', 'valueEnc')}
              on conflict (user_id, key) do update set value_enc = excluded.value_enc, updated_at = now()`;
          }
          if (deletes.length) await tx`delete from whatsapp.auth_state where user_id = ${userId} and key in ${tx(deletes)}`;
        });
      },
    };
  }

  async hasCreds(userId: string): Promise<boolean> {
    const [row] = await this.sql`select 1 from whatsapp.auth_state where user_id = ${userId} and key = 'creds'`;
    return row !== undefined;
  }

  async wipe(userId: string): Promise<void> {
    await this.sql`delete from whatsapp.auth_state where user_id = ${userId}`;
  }
}
