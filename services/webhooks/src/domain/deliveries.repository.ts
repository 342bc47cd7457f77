import type { WebhookDeliveryStatus } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

type Db = Sql | TransactionSql;

export interface NewDelivery {
  id: string;
  endpointId: string;
  userId: string;
  eventId: string;
  type: string;
  body: string;
  /** null: not for the dispatcher's rounds (a test send, made at once by whoever asked for it). */
  nextAttemptAt: Date | null;
  /** The span that wrote it (the consumer's, a request's), which each attempt's span links to; null untraced. */
  traceparent?: string | null;
}

/** A stored delivery: what was queued and what its attempts gave. */
export interface DeliveryRow extends NewDelivery {
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
}

/** A delivery this dispatcher holds: it alone may send it until `leaseUntil`, and record what happened. */
export interface ClaimedDelivery extends DeliveryRow {
  claimId: string;
  url: string;
  secretEnc: string;
}

/** One attempt as it ended (`webhooks.delivery_attempts`), as the log reads it (JSON: `at` is text). */
export interface AttemptRow {
  attempt: number;
  status: 'delivered' | 'failed';
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  at: string;
}

/** A delivery as the log shows it: the row and its attempts, read in one statement (one snapshot). */
export interface LoggedDelivery extends DeliveryRow {
  attemptLog: AttemptRow[];
}

export interface Outcome {
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
}

/** `webhooks.deliveries`: the log and the queue in one table, its state the only state (N replicas). */
export class DeliveriesRepository {
  constructor(private readonly sql: Sql) {}

  /** One row per (event, endpoint): a redelivered event inserts nothing. Returns how many are new. */
  async insert(rows: NewDelivery[], now: Date, tx: Db = this.sql): Promise<number> {
    if (rows.length === 0) return 0;
    const values = rows.map((r) => ({ ...r, traceparent: r.traceparent ?? null, createdAt: now }));
    const inserted = await tx`
      insert into webhooks.deliveries ${tx(values, 'id', 'endpointId', 'userId', 'eventId', 'type', 'body', 'nextAttemptAt', 'traceparent', 'createdAt')}
      on conflict (event_id, endpoint_id) do nothing
      returning id`;
    return inserted.length;
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints for this dispatcher: SKIP LOCKED passes over
   * rows another replica is claiming, and moving `next_attempt_at` to the lease's end in the same statement
   * takes them out of everyone's "due" until the send is recorded (or the claimant died and the lease ran out).
   */
  claimDue(now: Date, leaseUntil: Date, limit: number, claimId: string): Promise<ClaimedDelivery[]> {
    return this.sql<ClaimedDelivery[]>`
      update webhooks.deliveries d
        set claim_id = ${claimId}, next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1, last_attempt_at = ${now}
      from webhooks.endpoints e
      where e.id = d.endpoint_id and d.id in (
        select due.id from webhooks.deliveries due join webhooks.endpoints ep on ep.id = due.endpoint_id
        where due.status = 'pending' and due.next_attempt_at <= ${now} and ep.enabled
        order by due.next_attempt_at
        limit ${limit}
        for update of due skip locked)
      returning d.*, e.url, e.secret_enc`;
  }

  /**
   * Claims one delivery of the owner's endpoint for a send now ("Probar", "Reenviar"), whatever its status;
   * 'busy' while another dispatcher is sending it (a live lease), undefined when it is not the owner's.
   */
  async claimOne(userId: string, endpointId: string, deliveryId: string, now: Date, leaseUntil: Date, claimId: string): Promise<ClaimedDelivery | 'busy' | undefined> {
    return this.sql.begin(async (tx) => {
      const [row] = await tx<{ id: string; sending: boolean }[]>`
        select d.id, (d.claim_id is not null and d.status = 'pending' and d.next_attempt_at > ${now}) as sending
        from webhooks.deliveries d
        where d.id = ${deliveryId} and d.endpoint_id = ${endpointId} and d.user_id = ${userId}
        for update of d skip locked`;
      if (!row) {
        const [exists] = await tx`select 1 from webhooks.deliveries where id = ${deliveryId} and endpoint_id = ${endpointId} and user_id = ${userId}`;
        return exists ? 'busy' : undefined;
      }
      if (row.sending) return 'busy';
      const [claimed] = await tx<ClaimedDelivery[]>`
        update webhooks.deliveries d
          set claim_id = ${claimId}, status = 'pending', next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1, last_attempt_at = ${now}
        from webhooks.endpoints e
        where e.id = d.endpoint_id and d.id = ${deliveryId}
        returning d.*, e.url, e.secret_enc`;
      return claimed;
    });
  }

  /**
   * Records an attempt's outcome, only if this claim still holds it (a lease that ran out was taken over): the
   * delivery's last outcome and the attempt's own row, which later attempts leave as it is.
   */
  async record(tx: Db, claim: Pick<ClaimedDelivery, 'id' | 'claimId'>, outcome: Outcome, status: WebhookDeliveryStatus, nextAttemptAt: Date | null): Promise<boolean> {
    const rows = await tx`
      with recorded as (
        update webhooks.deliveries set
          status = ${status}, response_status = ${outcome.responseStatus}, latency_ms = ${outcome.latencyMs}, error = ${outcome.error},
          next_attempt_at = ${nextAttemptAt}, claim_id = null
        where id = ${claim.id} and claim_id = ${claim.claimId}
        returning id, user_id, attempts, last_attempt_at
      )
      insert into webhooks.delivery_attempts (delivery_id, user_id, attempt, status, response_status, latency_ms, error, attempted_at)
      select id, user_id, attempts, ${outcome.error === null ? 'delivered' : 'failed'}, ${outcome.responseStatus}, ${outcome.latencyMs}, ${outcome.error}, last_attempt_at
      from recorded
      returning delivery_id`;
    return rows.length > 0;
  }

  /** Successful attempts, many in one statement; each only if its claim still holds it, with its attempt's row. */
  async recordDelivered(tx: Db, rows: { id: string; claimId: string; responseStatus: number | null; latencyMs: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await tx`
      with recorded as (
        update webhooks.deliveries d set
          status = 'delivered', response_status = v.response_status, latency_ms = v.latency_ms, error = null, next_attempt_at = null, claim_id = null
        from (
          select unnest(${tx.array(rows.map((r) => r.id))}::uuid[]) as id,
                 unnest(${tx.array(rows.map((r) => r.claimId))}::uuid[]) as claim_id,
                 unnest(${tx.array(rows.map((r) => r.responseStatus ?? 0))}::int[]) as response_status,
                 unnest(${tx.array(rows.map((r) => r.latencyMs))}::int[]) as latency_ms
        ) as v
        where d.id = v.id and d.claim_id = v.claim_id
        returning d.id, d.user_id, d.attempts, d.last_attempt_at, v.response_status, v.latency_ms
      )
      insert into webhooks.delivery_attempts (delivery_id, user_id, attempt, status, response_status, latency_ms, attempted_at)
      select id, user_id, attempts, 'delivered', response_status, latency_ms, last_attempt_at from recorded`;
  }

  /** A delivery's attempts as a JSON array, oldest first: a column of the same statement as the row it belongs to. */
  private attemptLog() {
    return this.sql`
      coalesce((
        select json_agg(json_build_object('attempt', a.attempt, 'status', a.status, 'responseStatus', a.response_status,
          'latencyMs', a.latency_ms, 'error', a.error, 'at', a.attempted_at) order by a.attempt)
        from webhooks.delivery_attempts a where a.delivery_id = d.id
      ), '[]'::json) as attempt_log`;
  }

  /** An endpoint disabled: what waits for it will not be sent. */
  async failPending(tx: Db, endpointId: string, error: string): Promise<void> {
    await tx`
      update webhooks.deliveries set status = 'failed', error = ${error}, next_attempt_at = null, claim_id = null
      where endpoint_id = ${endpointId} and status = 'pending' and claim_id is null`;
  }

  async find(userId: string, id: string): Promise<LoggedDelivery | undefined> {
    const [row] = await this.sql<LoggedDelivery[]>`select d.*, ${this.attemptLog()} from webhooks.deliveries d where d.id = ${id} and d.user_id = ${userId}`;
    return row;
  }

  /** The endpoint's log, newest first, within the retention window. */
  async page(userId: string, endpointId: string, since: Date, page: number, limit: number): Promise<{ rows: LoggedDelivery[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.sql<LoggedDelivery[]>`
        select d.*, ${this.attemptLog()} from webhooks.deliveries d
        where d.endpoint_id = ${endpointId} and d.user_id = ${userId} and d.created_at >= ${since}
        order by d.created_at desc, d.id desc
        limit ${limit} offset ${(page - 1) * limit}`,
      this.sql<{ n: number }[]>`
        select count(*)::int as n from webhooks.deliveries where endpoint_id = ${endpointId} and user_id = ${userId} and created_at >= ${since}`,
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  /**
   * Deletes up to `limit` log rows created before `before`; returns how many. One still pending that old
   * waits for an endpoint its owner switched off: its retry window closed weeks ago, so it goes too.
   */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await this.sql`
      delete from webhooks.deliveries where id in (
        select id from webhooks.deliveries where created_at < ${before} limit ${limit})
      returning id`;
    return rows.length;
  }
}
