import { SqlLeases, type Sql } from '@asistente/kit';

/** NOTIFY channel of the work one replica asks of the replica that holds an account's sync. */
const CHANNEL = 'email_account';

/**
 * The lease columns of `email.accounts`: which replica holds each connected mailbox's sync and IDLE
 * connection, and until when (the kit's lease loop renews and claims them).
 */
export class LeasesRepository extends SqlLeases {
  constructor(private readonly db: Sql) {
    super(db, { table: 'email.accounts', key: 'id', wanted: 'connected', order: ['created_at', 'id'] });
  }

  /** Wakes every replica listening (PostgreSQL only: the embedded socket does not carry notifications). */
  async notify(payload: string): Promise<void> {
    await this.db`select pg_notify(${CHANNEL}, ${payload})`;
  }

  listen(onPayload: (payload: string) => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.db.listen(CHANNEL, onPayload);
  }
}
