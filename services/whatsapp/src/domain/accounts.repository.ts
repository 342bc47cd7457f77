import { securityActivityEvent, SqlLeases, type Outbox, type Sql, type TransactionSql } from '@asistente/kit';
import type { WhatsAppState } from '@asistente/contracts';

export interface AccountRow {
  userId: string;
  wanted: boolean;
  linked: boolean;
  /** A phone was linked at least once (kept through logouts). */
  everLinked: boolean;
  /** The attempt the owner last asked for showed a QR. */
  qrShown: boolean;
  state: WhatsAppState;
  qrEnc: string | null;
  phone: string | null;
  name: string | null;
  since: Date;
  lastEventAt: Date | null;
  error: string | null;
  region: string;
  reconnectsLastHour: number;
  decryptFailures: number;
  failedAttempts: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

export interface StatePatch {
  state: WhatsAppState;
  qrEnc?: string | null;
  error?: string | null;
  phone?: string | null;
  name?: string | null;
  linked?: boolean;
  qrShown?: boolean;
}

/** NOTIFY channel of the disconnects and logouts asked of a replica that does not hold the socket. */
const HAND_OVER_CHANNEL = 'whatsapp_hand_over';
/** NOTIFY channel of the sends stored by a replica that does not hold the socket; the payload is the user id. */
const PENDING_CHANNEL = 'whatsapp_pending';

/** `whatsapp.accounts`: one row per user, the shared view of its connection and the socket lease. */
export class AccountsRepository {
  /** The socket leases of the accounts that want one, for the session manager's lease loop. */
  readonly leases: SqlLeases;

  constructor(
    private readonly sql: Sql,
    /** Linking and unlinking the phone are lines of the owner's security log, written with the state that says so. */
    private readonly outbox?: Outbox,
  ) {
    this.leases = new SqlLeases(sql, { table: 'whatsapp.accounts', key: 'user_id', wanted: 'wanted', order: ['user_id'] });
  }

  async find(userId: string): Promise<AccountRow | undefined> {
    const [row] = await this.sql<AccountRow[]>`
      select user_id, wanted, linked, ever_linked, qr_shown, state, qr_enc, phone, name, since, last_event_at, error, region,
             cardinality(array(select t from unnest(reconnects_at) t where t > now() - interval '1 hour'))::int
               as reconnects_last_hour,
             decrypt_failures, failed_attempts, lease_owner, lease_until
      from whatsapp.accounts where user_id = ${userId}`;
    return row;
  }

  async want(userId: string, wanted: boolean): Promise<void> {
    await this.sql`
      insert into whatsapp.accounts (user_id, wanted) values (${userId}, ${wanted})
      on conflict (user_id) do update set wanted = excluded.wanted, updated_at = now()`;
  }

  /**
   * The account wanted and, when its lease is free (or `force`), leased to `owner`, in one statement: a
   * replica's tick cannot take between the two an account a connect call asked of this replica.
   */
  async wantAndClaim(userId: string, owner: string, ttlMs: number, force: boolean): Promise<boolean> {
    const until = this.sql`now() + ${ttlMs} * interval '1 millisecond'`;
    const free = force
      ? this.sql`true`
      : this.sql`(whatsapp.accounts.lease_owner is null or whatsapp.accounts.lease_owner = ${owner} or whatsapp.accounts.lease_until < now())`;
    const [row] = await this.sql<{ claimed: boolean }[]>`
      insert into whatsapp.accounts (user_id, wanted, lease_owner, lease_until) values (${userId}, true, ${owner}, ${until})
      on conflict (user_id) do update set
        wanted = true,
        updated_at = now(),
        lease_owner = case when ${free} then ${owner} else whatsapp.accounts.lease_owner end,
        lease_until = case when ${free} then ${until} else whatsapp.accounts.lease_until end
      returning lease_owner = ${owner} as claimed`;
    return row?.claimed ?? false;
  }

  /** A state change; `since` moves only when the state itself changes. */
  async setState(userId: string, patch: StatePatch): Promise<void> {
    if (!('linked' in patch) || !this.outbox) return this.writeState(this.sql, userId, patch);
    const outbox = this.outbox;
    // A link that changes (linked or unlinked, from the app or from the phone) is logged once, whichever path got here.
    await this.sql.begin(async (tx) => {
      const [before] = await tx<{ linked: boolean; phone: string | null }[]>`
        select linked, phone from whatsapp.accounts where user_id = ${userId} for update`;
      await this.writeState(tx, userId, patch);
      const linked = patch.linked ?? false;
      if (!before || before.linked === linked) return;
      const phone = linked ? (patch.phone ?? null) : before.phone;
      const detail = { provider: 'whatsapp' as const, ...(phone ? { account: phone } : {}) };
      // The phone links and unlinks, not a browser: no address nor User-Agent to tell.
      const client = { ip: null, userAgent: null };
      await outbox.append(tx, [securityActivityEvent(userId, linked ? 'provider.connected' : 'provider.disconnected', client, detail)]);
    });
  }

  private async writeState(sql: Sql | TransactionSql, userId: string, patch: StatePatch): Promise<void> {
    const has = (key: keyof StatePatch) => key in patch;
    await sql`
      update whatsapp.accounts set
        since = case when state = ${patch.state} then since else now() end,
        state = ${patch.state},
        qr_enc = ${has('qrEnc') ? sql`${patch.qrEnc ?? null}` : sql`qr_enc`},
        error = ${has('error') ? sql`${patch.error ?? null}` : sql`error`},
        phone = ${has('phone') ? sql`${patch.phone ?? null}` : sql`phone`},
        name = ${has('name') ? sql`${patch.name ?? null}` : sql`name`},
        linked = ${has('linked') ? sql`${patch.linked ?? false}` : sql`linked`},
        ever_linked = ever_linked or ${patch.linked === true},
        qr_shown = ${has('qrShown') ? sql`${patch.qrShown ?? false}` : sql`qr_shown`},
        updated_at = now()
      where user_id = ${userId}`;
  }

  async touch(userId: string, at: Date): Promise<void> {
    await this.sql`update whatsapp.accounts set last_event_at = ${at} where user_id = ${userId}`;
  }

  async recordReconnect(userId: string): Promise<void> {
    await this.sql`
      update whatsapp.accounts set reconnects_at =
        array(select t from unnest(reconnects_at) t where t > now() - interval '1 hour') || now()
      where user_id = ${userId}`;
  }

  /**
   * One more failed connection attempt of the account, counted in the row (a replica taking the socket over
   * keeps counting): answers how many so far and how long ago the first one failed.
   */
  async recordFailedAttempt(userId: string): Promise<{ attempts: number; sinceFirstMs: number }> {
    const [row] = await this.sql<{ attempts: number; sinceFirstMs: number }[]>`
      update whatsapp.accounts set
        failed_attempts = failed_attempts + 1,
        first_failed_at = coalesce(first_failed_at, now())
      where user_id = ${userId}
      returning failed_attempts as attempts,
                (extract(epoch from now() - first_failed_at) * 1000)::float8 as since_first_ms`;
    return row ?? { attempts: 1, sinceFirstMs: 0 };
  }

  /** The owner asked again (Conectar, Reintentar, a reset): the bound starts over, and no QR was shown yet. */
  async resetAttempts(userId: string): Promise<void> {
    await this.sql`update whatsapp.accounts set failed_attempts = 0, first_failed_at = null, qr_shown = false where user_id = ${userId}`;
  }

  async addDecryptFailures(userId: string, count: number): Promise<void> {
    await this.sql`update whatsapp.accounts set decrypt_failures = decrypt_failures + ${count} where user_id = ${userId}`;
  }

  /** Wakes every replica listening (PostgreSQL only: the embedded socket does not carry notifications). */
  async notifyHandOver(payload: string): Promise<void> {
    await this.sql`select pg_notify(${HAND_OVER_CHANNEL}, ${payload})`;
  }

  listenHandOver(onPayload: (payload: string) => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.sql.listen(HAND_OVER_CHANNEL, onPayload);
  }

  /** Wakes the replica holding `userId`'s socket to deliver what was just stored (PostgreSQL only, as above). */
  async notifyPending(userId: string): Promise<void> {
    await this.sql`select pg_notify(${PENDING_CHANNEL}, ${userId})`;
  }

  listenPending(onUserId: (userId: string) => void): Promise<{ unlisten: () => Promise<void> }> {
    return this.sql.listen(PENDING_CHANNEL, onUserId);
  }
}
