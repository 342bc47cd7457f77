import type { Sql, TransactionSql } from '@asistente/kit';

export type Provider = 'openai';

export interface ProviderKeyRow {
  apiKeyEnc: string;
  last4: string;
  /** When OpenAI last rejected the key; null while it is not known to be bad. */
  invalidAt: Date | null;
}

/** `ai.provider_keys`: one sealed key per (user, provider). */
export class ProviderKeysRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string, provider: Provider): Promise<ProviderKeyRow | undefined> {
    const [row] = await this.sql<ProviderKeyRow[]>`
      select api_key_enc, last4, invalid_at from ai.provider_keys where user_id = ${userId} and provider = ${provider}`;
    return row;
  }

  /** A new key is innocent until OpenAI says otherwise. */
  async upsert(userId: string, provider: Provider, apiKeyEnc: string, last4: string, tx: Sql | TransactionSql = this.sql): Promise<void> {
    await tx`
      insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
      values (${userId}, ${provider}, ${apiKeyEnc}, ${last4})
      on conflict (user_id, provider) do update
        set api_key_enc = excluded.api_key_enc, last4 = excluded.last4, invalid_at = null, updated_at = now()`;
  }

  /**
   * Records OpenAI's verdict on the key that was used, matched by its envelope so a key saved meanwhile
   * is not marked by the answer to the old one.
   */
  async setInvalid(userId: string, provider: Provider, apiKeyEnc: string, invalid: boolean): Promise<void> {
    await this.sql`
      update ai.provider_keys set invalid_at = ${invalid ? this.sql`now()` : null}
      where user_id = ${userId} and provider = ${provider} and api_key_enc = ${apiKeyEnc}`;
  }

  /** True when there was a key to delete. */
  async delete(userId: string, provider: Provider, tx: Sql | TransactionSql = this.sql): Promise<boolean> {
    const result = await tx`delete from ai.provider_keys where user_id = ${userId} and provider = ${provider}`;
    return result.count > 0;
  }
}
