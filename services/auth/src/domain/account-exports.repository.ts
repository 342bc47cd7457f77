import type { AccountExportStatus } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface ExportRow {
  id: string;
  userId: string;
  status: AccountExportStatus;
  progress: number;
  size: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A build whose heartbeat stopped this long ago died with its replica: it is read as failed. */
export const STALE_BUILD_SECONDS = 120;

/** auth.account_exports and their chunks: the state of every build, and the finished ZIPs' bytes. */
export class AccountExportsRepository {
  constructor(private readonly sql: Sql) {}

  async create(tx: TransactionSql, id: string, userId: string, ttlHours: number): Promise<void> {
    await tx`
      insert into auth.account_exports (id, user_id, status, expires_at)
      values (${id}, ${userId}, 'running', now() + make_interval(hours => ${ttlHours}))`;
  }

  /** The user's build still running (heartbeat alive), if any: a second request joins it instead of starting another. */
  async running(tx: TransactionSql, userId: string): Promise<string | undefined> {
    const [row] = await tx<{ id: string }[]>`
      select id from auth.account_exports
      where user_id = ${userId} and status = 'running' and heartbeat_at > now() - make_interval(secs => ${STALE_BUILD_SECONDS})
      order by created_at desc limit 1 for update`;
    return row?.id;
  }

  /**
   * Seconds until the user may start another export when `max` were started in the last `windowSeconds`
   * (failed ones too: a failed build did the work), else undefined. The `max`-th newest leaving the window
   * is what frees a place. Rows live until their expiry, which is no shorter than the window (see the test).
   */
  async secondsUntilAnother(tx: TransactionSql, userId: string, max: number, windowSeconds: number): Promise<number | undefined> {
    const [row] = await tx<{ wait: number }[]>`
      select ceil(extract(epoch from created_at + make_interval(secs => ${windowSeconds}) - now()))::int as wait
      from auth.account_exports
      where user_id = ${userId} and created_at > now() - make_interval(secs => ${windowSeconds})
      order by created_at desc offset ${max - 1} limit 1`;
    return row ? Math.max(1, row.wait) : undefined;
  }

  /** The user's export; a build whose replica died is marked failed first, so nothing stays running forever. */
  async find(userId: string, id: string): Promise<ExportRow | undefined> {
    await this.sql`
      update auth.account_exports set status = 'failed'
      where id = ${id} and user_id = ${userId} and status = 'running' and heartbeat_at <= now() - make_interval(secs => ${STALE_BUILD_SECONDS})`;
    const [row] = await this.sql<ExportRow[]>`
      select id, user_id, status, progress, size, created_at, expires_at from auth.account_exports where id = ${id} and user_id = ${userId}`;
    return row;
  }

  /** The user's newest export still running (heartbeat alive) or ready, before its expiry. */
  async current(userId: string): Promise<ExportRow | undefined> {
    const [row] = await this.sql<ExportRow[]>`
      select id, user_id, status, progress, size, created_at, expires_at from auth.account_exports
      where user_id = ${userId} and expires_at > now()
        and (status = 'ready' or (status = 'running' and heartbeat_at > now() - make_interval(secs => ${STALE_BUILD_SECONDS})))
      order by created_at desc limit 1`;
    return row;
  }

  /** Progress and heartbeat of a build still running; false when the row is gone or no longer running (stop building). */
  async progress(id: string, progress: number): Promise<boolean> {
    const result = await this.sql`
      update auth.account_exports set progress = ${progress}, heartbeat_at = now() where id = ${id} and status = 'running'`;
    return result.count === 1;
  }

  async finish(id: string, size: number): Promise<boolean> {
    const result = await this.sql`
      update auth.account_exports set status = 'ready', progress = 100, size = ${size}, heartbeat_at = now()
      where id = ${id} and status = 'running'`;
    return result.count === 1;
  }

  /** A failed build keeps no bytes. */
  async fail(id: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`update auth.account_exports set status = 'failed' where id = ${id} and status = 'running'`;
      await tx`delete from auth.account_export_chunks where export_id = ${id}`;
    });
  }

  async appendChunk(id: string, seq: number, data: Buffer): Promise<void> {
    await this.sql`insert into auth.account_export_chunks (export_id, seq, data) values (${id}, ${seq}, ${data})`;
  }

  /** The chunk at `seq`, or undefined past the last one: a download reads one chunk at a time. */
  async chunk(id: string, seq: number): Promise<Buffer | undefined> {
    const [row] = await this.sql<{ data: Buffer }[]>`select data from auth.account_export_chunks where export_id = ${id} and seq = ${seq}`;
    return row?.data;
  }

  /** Deletes up to `batch` expired exports (their chunks go with them); null when another replica holds the purge. */
  async purgeExpiredBatch(batch: number): Promise<number | null> {
    return this.sql.begin(async (tx) => {
      const [lock] = await tx<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(hashtext('auth.account_exports purge')) as locked`;
      if (!lock?.locked) return null;
      const result = await tx`
        delete from auth.account_exports where id in (
          select id from auth.account_exports where expires_at < now() order by expires_at limit ${batch})`;
      return result.count;
    });
  }
}
