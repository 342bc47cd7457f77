import type { Sql, TransactionSql } from '@asistente/kit';

export interface CloudAccountRow {
  userId: string;
  phoneNumberId: string;
  businessAccountId: string;
  accessTokenEnc: string;
  displayPhone: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  connectedAt: Date;
}

/** What connecting stores: the row less what the database gives (its owner and when). */
export type NewCloudAccount = Omit<CloudAccountRow, 'userId' | 'connectedAt'>;

const COLUMNS = ['user_id', 'phone_number_id', 'business_account_id', 'access_token_enc', 'display_phone', 'verified_name', 'quality_rating', 'connected_at'];

/** The phone number id is already another workspace's (the webhook could not tell the two apart). */
export class NumberTakenError extends Error {}

/** `whatsapp.cloud_accounts`: a workspace's Cloud API number, and the lease of the replica delivering its sends. */
export class CloudAccountsRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string): Promise<CloudAccountRow | undefined> {
    const [row] = await this.sql<CloudAccountRow[]>`select ${this.sql(COLUMNS)} from whatsapp.cloud_accounts where user_id = ${userId}`;
    return row;
  }

  async findByPhoneNumberId(phoneNumberId: string): Promise<CloudAccountRow | undefined> {
    const [row] = await this.sql<CloudAccountRow[]>`
      select ${this.sql(COLUMNS)} from whatsapp.cloud_accounts where phone_number_id = ${phoneNumberId}`;
    return row;
  }

  /** Connects (or reconnects with new details); refuses a number another workspace holds. */
  async save(userId: string, account: NewCloudAccount): Promise<CloudAccountRow> {
    const rows = await this.sql<CloudAccountRow[]>`
      insert into whatsapp.cloud_accounts
        (user_id, phone_number_id, business_account_id, access_token_enc, display_phone, verified_name, quality_rating)
      values (${userId}, ${account.phoneNumberId}, ${account.businessAccountId}, ${account.accessTokenEnc},
              ${account.displayPhone}, ${account.verifiedName}, ${account.qualityRating})
      on conflict (user_id) do update set
        phone_number_id = excluded.phone_number_id, business_account_id = excluded.business_account_id,
        access_token_enc = excluded.access_token_enc, display_phone = excluded.display_phone,
        verified_name = excluded.verified_name, quality_rating = excluded.quality_rating, connected_at = now()
      returning ${this.sql(COLUMNS)}`.catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') throw new NumberTakenError();
      throw error;
    });
    return rows[0]!;
  }

  async remove(userId: string, tx: Sql | TransactionSql = this.sql): Promise<boolean> {
    const result = await tx`delete from whatsapp.cloud_accounts where user_id = ${userId}`;
    return result.count > 0;
  }

  /** The delivery lease: one replica sends a workspace's queue at a time, so its messages leave in order. */
  async claimDrain(userId: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.sql`
      update whatsapp.cloud_accounts set drain_owner = ${owner}, drain_until = now() + ${ttlMs} * interval '1 millisecond'
      where user_id = ${userId} and (drain_owner is null or drain_owner = ${owner} or drain_until < now())
      returning user_id`;
    return rows.length === 1;
  }

  async releaseDrain(userId: string, owner: string): Promise<void> {
    await this.sql`update whatsapp.cloud_accounts set drain_owner = null, drain_until = null where user_id = ${userId} and drain_owner = ${owner}`;
  }

  /** Cloud workspaces with sends waiting (the tick's catch-up after a lost wake-up or a restart). */
  async withPending(): Promise<string[]> {
    const rows = await this.sql<{ userId: string }[]>`
      select a.user_id from whatsapp.cloud_accounts a
      where exists (select 1 from whatsapp.messages m where m.user_id = a.user_id and m.status = 'pending')
      limit 100`;
    return rows.map((r) => r.userId);
  }

  /** When the customer of this chat last wrote (the customer-service window starts there). */
  async lastIncomingAt(chatId: string): Promise<Date | null> {
    const [row] = await this.sql<{ at: Date | null }[]>`
      select max(sent_at) as at from whatsapp.messages where chat_id = ${chatId} and direction = 'incoming'`;
    return row?.at ?? null;
  }
}
