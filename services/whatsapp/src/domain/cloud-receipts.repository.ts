import type { Receipt, ReceiptStatus, Sql } from '@asistente/kit';

/** A workspace keeps at most this many early statuses: a flood of statuses for unknown ids cannot grow the table. */
export const EARLY_RECEIPTS_MAX = 1_000;
/**
 * An early status is read only this long: the send's answer comes within seconds (its deadline is 10 s, a
 * retry after a lost answer gets a new id), so an older one will never find its message.
 */
export const EARLY_RECEIPTS_TTL_MINUTES = 60;

const RANK = `case status when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`;

/** An early status whose message has its Meta id by now. */
export interface KnownReceipt extends Receipt {
  userId: string;
}

/**
 * `whatsapp.cloud_early_receipts`: Meta's statuses for a Meta id no stored message carries yet. Keeping one
 * and storing the id take the same transaction-scoped lock on the id, so a status is either kept before the id
 * is stored (and applied after it) or finds the message: never neither.
 */
export class CloudReceiptsRepository {
  constructor(private readonly sql: Sql) {}

  /** Keeps the status unless a message of the workspace already carries its id (then answers false: apply it). */
  async keepUnlessKnown(userId: string, receipt: Receipt): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${lockKey(receipt.id)}, 0))`;
      const [known] = await tx`select 1 from whatsapp.messages where user_id = ${userId} and wa_id = ${receipt.id}`;
      if (known) return false;
      await tx`
        insert into whatsapp.cloud_early_receipts (user_id, wamid, status)
        select ${userId}, ${receipt.id}, ${receipt.status}
        where (select count(*) from whatsapp.cloud_early_receipts where user_id = ${userId}) < ${EARLY_RECEIPTS_MAX}
        on conflict do nothing`;
      return true;
    });
  }

  /**
   * Meta's id for a queued send, stored under the lock `keepUnlessKnown` takes. Meta accepted the message, so
   * it goes out whatever failed it while it was at Meta (a disconnect): it is pending again, for the drain to
   * mark it sent.
   */
  async setProviderId(userId: string, id: string, wamid: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${lockKey(wamid)}, 0))`;
      await tx`
        update whatsapp.messages
        set wa_id = ${wamid}, status = case when status = 'failed' then 'pending' else status end,
          error = case when status = 'failed' then null else error end
        where id = ${id} and user_id = ${userId}`;
    });
  }

  /** The young statuses kept for this id, in the order they move a message (sent, delivered, read, failed). */
  async keptFor(userId: string, wamid: string): Promise<Receipt[]> {
    const rows = await this.sql<{ status: ReceiptStatus }[]>`
      select status from whatsapp.cloud_early_receipts
      where user_id = ${userId} and wamid = ${wamid} and received_at > now() - ${EARLY_RECEIPTS_TTL_MINUTES} * interval '1 minute'
      order by ${this.sql.unsafe(RANK)}`;
    return rows.map((r) => ({ id: wamid, status: r.status }));
  }

  /** Kept statuses whose message has its id now (a replica died between storing the id and applying them). */
  async known(limit: number): Promise<KnownReceipt[]> {
    return this.sql<KnownReceipt[]>`
      select r.user_id, r.wamid as id, r.status from whatsapp.cloud_early_receipts r
      where exists (select 1 from whatsapp.messages m where m.user_id = r.user_id and m.wa_id = r.wamid)
      order by r.received_at, ${this.sql.unsafe(RANK)} limit ${limit}`;
  }

  async forget(userId: string, wamid: string): Promise<void> {
    await this.sql`delete from whatsapp.cloud_early_receipts where user_id = ${userId} and wamid = ${wamid}`;
  }

  async prune(): Promise<void> {
    await this.sql`delete from whatsapp.cloud_early_receipts where received_at < now() - ${EARLY_RECEIPTS_TTL_MINUTES} * interval '1 minute'`;
  }
}

const lockKey = (wamid: string) => `whatsapp.cloud_receipts:${wamid}`;
