import type { OpenAiKeySaved, OpenAiKeyStatus } from '@asistente/contracts';
import { securityActivityEvent, type Outbox, type SecretBox, type SecretContext, type SecurityClient, type Sql } from '@asistente/kit';
import { OPENAI_KEY_COLUMN } from './secret-columns.js';
import { lastFour, normalizeOpenAiKey } from './api-key.js';
import type { ProviderKeysRepository } from './provider-keys.repository.js';

export interface OpenedKey {
  apiKey: string;
  /** The stored envelope, to record OpenAI's verdict on exactly this key. */
  envelope: string;
  knownInvalid: boolean;
}

/**
 * The user's OpenAI key: sealed with the platform's SecretBox before it reaches SQL, so neither the database
 * nor a query log ever holds it in clear; only its last 4 characters come back out.
 */
export class ProviderKeysService {
  constructor(
    private readonly keys: ProviderKeysRepository,
    private readonly box: SecretBox,
    private readonly sql: Sql,
    private readonly outbox: Outbox,
  ) {}

  async status(userId: string): Promise<OpenAiKeyStatus> {
    const row = await this.keys.find(userId, 'openai');
    return { exists: row !== undefined, last4: row?.last4 ?? null, valid: row !== undefined && row.invalidAt === null };
  }

  /** The key in clear, for one call to OpenAI: kept in memory only, never logged nor answered. */
  async open(userId: string): Promise<OpenedKey | undefined> {
    const row = await this.keys.find(userId, 'openai');
    if (!row) return undefined;
    const apiKey = this.box.open(row.apiKeyEnc, openAiKeyContext(userId));
    return { apiKey, envelope: row.apiKeyEnc, knownInvalid: row.invalidAt !== null };
  }

  /** OpenAI answered 401 with this key (or, valid, a call with it succeeded after one did). */
  async markValidity(userId: string, key: OpenedKey, valid: boolean): Promise<void> {
    await this.keys.setInvalid(userId, 'openai', key.envelope, !valid);
  }

  /** Saved with its line in the owner's security log, in one transaction; the line names the change, never the key. */
  async save(userId: string, apiKey: string, client: SecurityClient): Promise<OpenAiKeySaved> {
    const key = normalizeOpenAiKey(apiKey);
    const last4 = lastFour(key);
    const sealed = this.box.seal(key, openAiKeyContext(userId));
    await this.sql.begin(async (tx) => {
      await this.keys.upsert(userId, 'openai', sealed, last4, tx);
      await this.outbox.append(tx, [securityActivityEvent(userId, 'openai_key.saved', client)]);
    });
    return { success: true, last4 };
  }

  /**
   * Idempotent: deleting a key that is not there succeeds, the state the user asked for holds either way;
   * only a key actually removed is a line in the security log.
   */
  async delete(userId: string, client: SecurityClient): Promise<void> {
    await this.sql.begin(async (tx) => {
      if (await this.keys.delete(userId, 'openai', tx)) await this.outbox.append(tx, [securityActivityEvent(userId, 'openai_key.removed', client)]);
    });
  }
}

/** The AAD of a stored OpenAI key: the registry's table and column, so rotate-keys opens it with the same context. */
export function openAiKeyContext(userId: string): SecretContext {
  return { userId, table: OPENAI_KEY_COLUMN.table, column: OPENAI_KEY_COLUMN.column };
}
