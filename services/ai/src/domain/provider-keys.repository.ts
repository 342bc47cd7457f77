import type { Sql } from '@asistente/kit';

export type Provider = 'openai';

export interface ProviderKeyRow {
  apiKeyEnc: string;
  last4: string;
}

/** `ai.provider_keys`: one sealed key per (user, provider). */
export class ProviderKeysRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string, provider: Provider): Promise<ProviderKeyRow | undefined> {
    const [row] = await this.sql<ProviderKeyRow[]>`
      select api_key_enc, last4 from ai.provider_keys where user_id = ${userId} and provider = ${provider}`;
    return row;
  }

  async upsert(userId: string, provider: Provider, apiKeyEnc: string, last4: string): Promise<void> {
    await this.sql`
      insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
      values (${userId}, ${provider}, ${apiKeyEnc}, ${last4})
      on conflict (user_id, provider) do update
        set api_key_enc = excluded.api_key_enc, last4 = excluded.last4, updated_at = now()`;
  }

  async delete(userId: string, provider: Provider): Promise<void> {
    await this.sql`delete from ai.provider_keys where user_id = ${userId} and provider = ${provider}`;
  }
}
