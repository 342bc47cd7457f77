import type { Sql } from '@asistente/kit';

export interface WebhookRow {
  id: string;
  userId: string;
  /** As Meta wrote it, read as text: the camel-case transform of the driver would rename its keys (`wa_id`). */
  payload: string;
  attempts: number;
}

/** Meta retries an unanswered webhook for up to 7 days: ids are remembered that long. */
const SEEN_FOR_DAYS = 7;

/** `whatsapp.cloud_webhooks` and `whatsapp.cloud_message_ids`: accepted webhooks waiting to be processed. */
export class CloudWebhooksRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Keeps a workspace's part of a webhook unless every message in it was delivered before (Meta's retry of a
   * webhook we already accepted); statuses are always kept (applying one twice changes nothing).
   */
  async accept(userId: string, payload: unknown, messageIds: string[], hasStatuses: boolean): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      let fresh = 0;
      if (messageIds.length > 0) {
        const rows = messageIds.map((wamid) => ({ wamid, userId }));
        const inserted = await tx`
          insert into whatsapp.cloud_message_ids ${tx(rows, 'wamid', 'userId')} on conflict (wamid) do nothing returning wamid`;
        fresh = inserted.length;
      }
      if (fresh === 0 && !hasStatuses) return false;
      await tx`insert into whatsapp.cloud_webhooks (user_id, payload) values (${userId}, ${tx.json(payload as never)})`;
      return true;
    });
  }

  /** Takes up to `limit` waiting webhooks (or ones whose processor's lease ran out), oldest first. */
  async claim(owner: string, ttlMs: number, limit: number): Promise<WebhookRow[]> {
    return this.sql<WebhookRow[]>`
      update whatsapp.cloud_webhooks set claimed_by = ${owner}, claimed_until = now() + ${ttlMs} * interval '1 millisecond',
        attempts = attempts + 1
      where id in (
        select id from whatsapp.cloud_webhooks
        where claimed_by is null or claimed_until < now()
        order by id limit ${limit}
        for update skip locked)
      returning id, user_id, payload::text as payload, attempts`;
  }

  async done(id: string): Promise<void> {
    await this.sql`delete from whatsapp.cloud_webhooks where id = ${id}`;
  }

  async pruneSeen(): Promise<void> {
    await this.sql`delete from whatsapp.cloud_message_ids where received_at < now() - ${SEEN_FOR_DAYS} * interval '1 day'`;
  }
}
