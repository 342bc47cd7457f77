import { type Sql, type TransactionSql } from '@asistente/kit';
import { WEBHOOK_SECRET_COLUMN } from './secret-columns.js';
import type { WebhookEventType } from '@asistente/contracts';

export interface EndpointRow {
  id: string;
  userId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  secretEnc: string;
  enabled: boolean;
  /** "Solo identificadores": payloads carry ids alone. */
  idsOnly: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

/** What the consumer's fan-out reads of an enabled endpoint. */
export type EnabledEndpoint = Pick<EndpointRow, 'id' | 'userId' | 'events' | 'idsOnly' | 'createdAt'>;

export interface EndpointChanges {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  enabled?: boolean;
  disabledReason?: string | null;
  idsOnly?: boolean;
}

type Db = Sql | TransactionSql;

/** `webhooks.endpoints`: every query filters by the owner, so another user's id reads as missing. */
export class EndpointsRepository {
  readonly secretContext = (userId: string) => ({ userId, table: WEBHOOK_SECRET_COLUMN.table, column: WEBHOOK_SECRET_COLUMN.column });

  constructor(private readonly sql: Sql) {}

  list(userId: string): Promise<EndpointRow[]> {
    return this.sql<EndpointRow[]>`select * from webhooks.endpoints where user_id = ${userId} order by created_at, id`;
  }

  async find(userId: string, id: string, db: Db = this.sql): Promise<EndpointRow | undefined> {
    const [row] = await db<EndpointRow[]>`select * from webhooks.endpoints where id = ${id} and user_id = ${userId}`;
    return row;
  }

  /**
   * Inserts unless the owner already has `max`: counted under a per-user lock (held to commit), so two
   * requests at once on two replicas cannot both pass the count. Returns undefined at the limit.
   */
  create(row: Omit<EndpointRow, 'enabled' | 'disabledReason' | 'failingSince' | 'createdAt'>, max: number): Promise<EndpointRow | undefined> {
    return this.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${`webhooks.endpoints:${row.userId}`}, 0))`;
      const [count] = await tx<{ n: number }[]>`select count(*)::int as n from webhooks.endpoints where user_id = ${row.userId}`;
      if ((count?.n ?? 0) >= max) return undefined;
      const [created] = await tx<EndpointRow[]>`
        insert into webhooks.endpoints (id, user_id, url, events, description, secret_enc, ids_only)
        values (${row.id}, ${row.userId}, ${row.url}, ${tx.array(row.events)}, ${row.description}, ${row.secretEnc}, ${row.idsOnly})
        returning *`;
      return created;
    });
  }

  /** Re-enabling clears the failure record: the owner says the receiver is fixed. */
  async update(userId: string, id: string, changes: EndpointChanges): Promise<EndpointRow | undefined> {
    const [row] = await this.sql<EndpointRow[]>`
      update webhooks.endpoints set
        url = coalesce(${changes.url ?? null}, url),
        events = coalesce(${changes.events ? this.sql.array(changes.events) : null}::text[], events),
        description = coalesce(${changes.description ?? null}, description),
        enabled = coalesce(${changes.enabled ?? null}, enabled),
        ids_only = coalesce(${changes.idsOnly ?? null}, ids_only),
        disabled_reason = case when ${changes.enabled ?? null}::boolean is null then disabled_reason else ${changes.disabledReason ?? null} end,
        failing_since = case when ${changes.enabled ?? null}::boolean then null else failing_since end,
        updated_at = now()
      where id = ${id} and user_id = ${userId}
      returning *`;
    return row;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.sql`delete from webhooks.endpoints where id = ${id} and user_id = ${userId} returning id`;
    return rows.length > 0;
  }

  /** The enabled endpoints of these users (the consumer's fan-out, inside its transaction). */
  enabledOf(tx: Db, userIds: string[]): Promise<EnabledEndpoint[]> {
    return tx<EnabledEndpoint[]>`
      select id, user_id, events, ids_only, created_at from webhooks.endpoints where enabled and user_id = any(${tx.array(userIds)}::uuid[])`;
  }

  /** Account erasure: every endpoint of the user, and with them (cascade) their delivery log. */
  async eraseUser(userId: string, db: Db = this.sql): Promise<number> {
    const rows = await db`delete from webhooks.endpoints where user_id = ${userId} returning id`;
    return rows.length;
  }
}
