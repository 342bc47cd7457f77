import type { ErasureProgressedEventData } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface DeletionRow {
  id: string;
  requestedAt: Date;
  finishedAt: Date | null;
}

export interface ProgressRow {
  service: string;
  status: 'pending' | 'running' | 'done';
  problems: string[];
}

/** auth.account_deletions and their per-service progress: no user id, no personal data. */
export class AccountDeletionsRepository {
  constructor(private readonly sql: Sql) {}

  async create(tx: TransactionSql, id: string, services: readonly string[]): Promise<void> {
    await tx`insert into auth.account_deletions (id) values (${id})`;
    await tx`insert into auth.account_erasure_progress ${tx(services.map((service) => ({ deletionId: id, service })), 'deletionId', 'service')}`;
  }

  /**
   * The user row goes in the deletion's transaction: `platform.user_sessions`, personal tokens, exports,
   * resets and the security log follow by cascade, so every token of the user is refused at once, everywhere.
   * Returns false when the user was already gone (a second request racing the first).
   */
  async deleteUser(tx: TransactionSql, userId: string): Promise<boolean> {
    const result = await tx`delete from auth.users where id = ${userId}`;
    return result.count > 0;
  }

  async find(id: string): Promise<{ deletion: DeletionRow; services: ProgressRow[] } | undefined> {
    const [deletion] = await this.sql<DeletionRow[]>`select id, requested_at, finished_at from auth.account_deletions where id = ${id}`;
    if (!deletion) return undefined;
    const services = await this.sql<ProgressRow[]>`
      select service, status, problems from auth.account_erasure_progress where deletion_id = ${id}`;
    return { deletion, services };
  }

  /**
   * Applies reports of a batch in one transaction. `done` never goes back to `running` (a redelivered
   * erasure reports running again); a report for an unknown deletion (another deployment's, or a record
   * already purged) is dropped. The deletion is finished once every service is done.
   */
  async record(tx: TransactionSql, reports: ErasureProgressedEventData[]): Promise<void> {
    for (const r of reports) {
      await tx`
        insert into auth.account_erasure_progress as p (deletion_id, service, status, problems)
        select ${r.deletionId}, ${r.service}, ${r.status}, ${tx.json(r.problems)}
        from auth.account_deletions d where d.id = ${r.deletionId}
        on conflict (deletion_id, service) do update
          set status = case when p.status = 'done' then 'done' else excluded.status end,
              problems = case when excluded.status = 'done' then excluded.problems else p.problems end,
              updated_at = now()`;
      await tx`
        update auth.account_deletions d set finished_at = now()
        where d.id = ${r.deletionId} and d.finished_at is null
          and not exists (select 1 from auth.account_erasure_progress p where p.deletion_id = d.id and p.status <> 'done')`;
    }
  }
}
