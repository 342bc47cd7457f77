import type { InboxSettings } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

const DEFAULTS: InboxSettings = { assignment: 'none', onlyAssigneeSends: false };

/** inbox.settings, inbox.availability and the log of assignments. */
export class InboxSettingsRepository {
  constructor(private readonly sql: Sql) {}

  async get(workspaceId: string): Promise<InboxSettings> {
    const [row] = await this.sql<InboxSettings[]>`
      select assignment, only_assignee_sends from inbox.settings where user_id = ${workspaceId}`;
    return row ?? DEFAULTS;
  }

  async update(workspaceId: string, patch: Partial<InboxSettings>): Promise<InboxSettings> {
    const next = { ...(await this.get(workspaceId)), ...patch };
    await this.sql`
      insert into inbox.settings (user_id, assignment, only_assignee_sends) values (${workspaceId}, ${next.assignment}, ${next.onlyAssigneeSends})
      on conflict (user_id) do update set assignment = excluded.assignment, only_assignee_sends = excluded.only_assignee_sends`;
    return next;
  }

  /**
   * The rule and whose turn it is, with the workspace's settings row locked until the transaction ends: two
   * replicas assigning at once take turns, so one conversation is never given twice and the turn never skips.
   */
  async lockTurn(tx: TransactionSql, workspaceId: string): Promise<InboxSettings & { lastAssignedId: string | null }> {
    await tx`insert into inbox.settings (user_id) values (${workspaceId}) on conflict (user_id) do nothing`;
    const [row] = await tx<(InboxSettings & { lastAssignedId: string | null })[]>`
      select assignment, only_assignee_sends, last_assigned_id from inbox.settings where user_id = ${workspaceId} for update`;
    return row!;
  }

  async moveTurn(tx: TransactionSql, workspaceId: string, memberId: string): Promise<void> {
    await tx`update inbox.settings set last_assigned_id = ${memberId} where user_id = ${workspaceId}`;
  }

  /** Members marked "Ausente" (every other member is available). */
  async away(workspaceId: string, tx: Sql | TransactionSql = this.sql): Promise<Set<string>> {
    const rows = await tx<{ memberId: string }[]>`
      select member_id from inbox.availability where user_id = ${workspaceId} and not available`;
    return new Set(rows.map((r) => r.memberId));
  }

  async setAvailable(workspaceId: string, memberId: string, available: boolean): Promise<void> {
    await this.sql`
      insert into inbox.availability (user_id, member_id, available) values (${workspaceId}, ${memberId}, ${available})
      on conflict (user_id, member_id) do update set available = excluded.available`;
  }

  async logAssignment(tx: TransactionSql, a: { id: string; workspaceId: string; conversationId: string; assigneeId: string | null; assignedBy: string | null }): Promise<void> {
    await tx`
      insert into inbox.assignments (id, user_id, conversation_id, assignee_id, assigned_by)
      values (${a.id}, ${a.workspaceId}, ${a.conversationId}, ${a.assigneeId}, ${a.assignedBy})`;
  }

  /** A member who left: their availability everywhere, or in one workspace. */
  async forget(tx: TransactionSql, workspaceId: string | null, memberId: string): Promise<void> {
    await tx`delete from inbox.availability where member_id = ${memberId} and (${workspaceId}::uuid is null or user_id = ${workspaceId})`;
    await tx`delete from inbox.reads where member_id = ${memberId} and (${workspaceId}::uuid is null or user_id = ${workspaceId})`;
  }
}
