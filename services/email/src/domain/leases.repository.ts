import type { Sql } from '@asistente/kit';

/** NOTIFY channel of the work one replica asks of the replica that holds an account's sync. */
const CHANNEL = 'email_account';

/**
 * The lease columns of `email.accounts`: which replica holds each connected mailbox's sync and IDLE
 * connection, and until when. The same pattern as WhatsApp's sockets (services/whatsapp accounts.repository).
 */
export class LeasesRepository {
  constructor(private readonly sql: Sql) {}

  /** Extends the leases `owner` holds on accounts still connected; answers the ones it still holds. */
  async renew(owner: string, ttlMs: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      update email.accounts set lease_until = now() + ${ttlMs} * interval '1 millisecond'
      where lease_owner = ${owner} and connected
      returning id`;
    return rows.map((r) => r.id);
  }

  /**
   * Takes connected accounts without a live holder (never held, expired or released); `accountId` narrows it
   * to one, `force` ignores live leases (the embedded process is the only replica).
   */
  async claim(owner: string, ttlMs: number, options: { accountId?: string; force?: boolean } = {}): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      update email.accounts set lease_owner = ${owner}, lease_until = now() + ${ttlMs} * interval '1 millisecond'
      where id in (
        select id from email.accounts
        where connected
          ${options.accountId ? this.sql`and id = ${options.accountId}` : this.sql``}
          ${options.force ? this.sql`` : this.sql`and (lease_owner is null or lease_owner = ${owner} or lease_until < now())`}
        order by created_at, id
        limit 100
        for update skip locked)
      returning id`;
    return rows.map((r) => r.id);
  }

  /** Released, not left to expire: another replica takes the accounts over at its next tick. */
  async release(owner: string, accountId?: string): Promise<void> {
    await this.sql`
      update email.accounts set lease_owner = null, lease_until = null
      where lease_owner = ${owner} ${accountId ? this.sql`and id = ${accountId}` : this.sql``}`;
  }

  /** Wakes every replica listening (PostgreSQL only: the embedded socket does not carry notifications). */
  async notify(payload: string): Promise<void> {
    await this.sql`select pg_notify(${CHANNEL}, ${payload})`;
  }

  listen(onPayload: (payload: string) => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.sql.listen(CHANNEL, onPayload);
  }
}
