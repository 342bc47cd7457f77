import type { Sql, TransactionSql } from '@asistente/kit';

export interface SendRequestRow {
  fingerprint: string;
  sentId: string;
  state: 'sending' | 'sent';
}

/** `email.send_requests`: the sends asked with an Idempotency-Key, kept a day. */
export class SendRequestsRepository {
  constructor(private readonly sql: Sql) {}

  /** The send's id when this request is the first with its key; undefined when another had it. */
  async claim(userId: string, key: string, fingerprint: string): Promise<string | undefined> {
    const [row] = await this.sql<{ sentId: string }[]>`
      with expired as (
        delete from email.send_requests where user_id = ${userId} and created_at < now() - interval '1 day'
      )
      insert into email.send_requests (user_id, key, fingerprint, sent_id)
      values (${userId}, ${key}, ${fingerprint}, gen_random_uuid())
      on conflict (user_id, key) do nothing
      returning sent_id`;
    return row?.sentId;
  }

  async find(userId: string, key: string): Promise<SendRequestRow | undefined> {
    const [row] = await this.sql<SendRequestRow[]>`
      select fingerprint, sent_id, state from email.send_requests where user_id = ${userId} and key = ${key}`;
    return row;
  }

  async markSent(tx: TransactionSql, userId: string, key: string): Promise<void> {
    await tx`update email.send_requests set state = 'sent' where user_id = ${userId} and key = ${key}`;
  }

  /** Nothing reached the SMTP server: the key is free again for a retry. */
  async forget(userId: string, key: string): Promise<void> {
    await this.sql`delete from email.send_requests where user_id = ${userId} and key = ${key} and state = 'sending'`;
  }
}
