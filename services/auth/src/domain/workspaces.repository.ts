import type { Workspace, WorkspaceMember, WorkspaceRole } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

interface MemberRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: Date;
  lastActiveAt: Date | null;
}

const toMember = (r: MemberRow): WorkspaceMember => ({
  userId: r.userId,
  firstName: r.firstName,
  lastName: r.lastName,
  email: r.email,
  role: r.role,
  joinedAt: r.joinedAt.toISOString(),
  lastActiveAt: r.lastActiveAt?.toISOString() ?? null,
});

const SPANISH = new Intl.Collator('es', { sensitivity: 'base' });

/** auth.workspaces and auth.members (platform.memberships follows the members by trigger). */
export class WorkspacesRepository {
  constructor(private readonly sql: Sql) {}

  /** A new workspace with `ownerId` as its owner, opened next time they sign in. */
  async create(tx: TransactionSql, workspace: { id: string; name: string }, ownerId: string): Promise<Workspace> {
    await tx`insert into auth.workspaces (id, name) values (${workspace.id}, ${workspace.name})`;
    await this.addMember(tx, workspace.id, ownerId, 'owner');
    return { id: workspace.id, name: workspace.name, role: 'owner' };
  }

  async exists(id: string, tx: Sql | TransactionSql = this.sql): Promise<boolean> {
    const rows = await tx`select 1 from auth.workspaces where id = ${id}`;
    return rows.length > 0;
  }

  /** The workspace as `userId` sees it (with their role), or undefined when they are not a member. */
  async find(workspaceId: string, userId: string): Promise<Workspace | undefined> {
    const [row] = await this.sql<Workspace[]>`
      select w.id, w.name, m.role from auth.workspaces w join auth.members m on m.workspace_id = w.id
      where w.id = ${workspaceId} and m.user_id = ${userId}`;
    return row;
  }

  /** Where a sign-in opens: the workspace used last while still a member, else the one joined first. */
  async openedAtSignIn(userId: string): Promise<Workspace | undefined> {
    const [row] = await this.sql<Workspace[]>`
      select w.id, w.name, m.role
      from auth.members m join auth.workspaces w on w.id = m.workspace_id join auth.users u on u.id = m.user_id
      where m.user_id = ${userId}
      order by (m.workspace_id = u.last_workspace_id) desc, m.joined_at, m.workspace_id
      limit 1`;
    return row;
  }

  /** Sorted as a Spanish reader expects (the database's collation may put "Óptica" after "Zapatería"). */
  async listFor(userId: string): Promise<Workspace[]> {
    const rows = await this.sql<Workspace[]>`
      select w.id, w.name, m.role from auth.members m join auth.workspaces w on w.id = m.workspace_id
      where m.user_id = ${userId}`;
    return rows.sort((a, b) => SPANISH.compare(a.name, b.name) || a.id.localeCompare(b.id));
  }

  /** A session opened in the workspace: the member was active now, and a sign-in opens it next time. */
  async opened(workspaceId: string, userId: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`update auth.members set last_active_at = now() where workspace_id = ${workspaceId} and user_id = ${userId}`;
      await tx`update auth.users set last_workspace_id = ${workspaceId} where id = ${userId}`;
    });
  }

  /** The member was seen acting (their profile read: every screen load); written at most once a minute. */
  async active(workspaceId: string, userId: string): Promise<void> {
    await this.sql`
      update auth.members set last_active_at = now()
      where workspace_id = ${workspaceId} and user_id = ${userId} and (last_active_at is null or last_active_at < now() - interval '1 minute')`;
  }

  async rename(workspaceId: string, name: string): Promise<void> {
    await this.sql`update auth.workspaces set name = ${name}, updated_at = now() where id = ${workspaceId}`;
  }

  /** The owner first, then by name. */
  async members(workspaceId: string): Promise<WorkspaceMember[]> {
    const rows = await this.memberRows(workspaceId);
    const byName = (a: MemberRow, b: MemberRow) => SPANISH.compare(`${a.firstName} ${a.lastName}`, `${b.firstName} ${b.lastName}`) || a.userId.localeCompare(b.userId);
    return rows.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner') || byName(a, b)).map(toMember);
  }

  /** Locks the workspace's row: joins, invitations and role changes of one workspace happen one at a time. */
  async lock(tx: TransactionSql, workspaceId: string): Promise<boolean> {
    const rows = await tx`select 1 from auth.workspaces where id = ${workspaceId} for update`;
    return rows.length > 0;
  }

  async memberCount(tx: TransactionSql, workspaceId: string): Promise<number> {
    const [row] = await tx<{ n: number }[]>`select count(*)::int as n from auth.members where workspace_id = ${workspaceId}`;
    return row?.n ?? 0;
  }

  async roleOf(workspaceId: string, userId: string, tx: Sql | TransactionSql = this.sql): Promise<WorkspaceRole | undefined> {
    const [row] = await tx<{ role: WorkspaceRole }[]>`select role from auth.members where workspace_id = ${workspaceId} and user_id = ${userId}`;
    return row?.role;
  }

  async member(workspaceId: string, userId: string): Promise<WorkspaceMember | undefined> {
    const [row] = await this.memberRows(workspaceId, userId);
    return row && toMember(row);
  }

  /** The workspace's members, or the one `userId` is. */
  private memberRows(workspaceId: string, userId?: string): Promise<MemberRow[]> {
    return this.sql<MemberRow[]>`
      select m.user_id, u.first_name, u.last_name, u.email, m.role, m.joined_at, m.last_active_at
      from auth.members m join auth.users u on u.id = m.user_id
      where m.workspace_id = ${workspaceId} ${userId ? this.sql`and m.user_id = ${userId}` : this.sql``}`;
  }

  /** Whether someone with this address is a member already. */
  async hasMemberWithEmail(tx: TransactionSql, workspaceId: string, email: string): Promise<boolean> {
    const rows = await tx`
      select 1 from auth.members m join auth.users u on u.id = m.user_id
      where m.workspace_id = ${workspaceId} and lower(u.email) = lower(${email})`;
    return rows.length > 0;
  }

  /** Joins `userId` to the workspace (nothing when already a member); a sign-in opens it next. */
  async addMember(tx: TransactionSql, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await tx`insert into auth.members (workspace_id, user_id, role, last_active_at) values (${workspaceId}, ${userId}, ${role}, now()) on conflict do nothing`;
    await tx`update auth.users set last_workspace_id = ${workspaceId} where id = ${userId}`;
  }

  async setRole(tx: TransactionSql, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await tx`update auth.members set role = ${role} where workspace_id = ${workspaceId} and user_id = ${userId}`;
  }

  /** Removes the member; its trigger removes the membership every token check reads. */
  async removeMember(tx: TransactionSql, workspaceId: string, userId: string): Promise<void> {
    await tx`delete from auth.members where workspace_id = ${workspaceId} and user_id = ${userId}`;
  }

  /**
   * What keeps the person's account from being erased with everything under its id: a workspace they own
   * that has other members, or the workspace they founded (its id is theirs) now owned by someone else.
   */
  async blockingErasure(userId: string): Promise<{ name: string; reason: 'shared' | 'transferred' } | undefined> {
    const [row] = await this.sql<{ name: string; reason: 'shared' | 'transferred' }[]>`
      select w.name, case when w.id = ${userId} and owner.user_id <> ${userId} then 'transferred' else 'shared' end as reason
      from auth.workspaces w join auth.members owner on owner.workspace_id = w.id and owner.role = 'owner'
      where (owner.user_id = ${userId} and exists (select 1 from auth.members m where m.workspace_id = w.id and m.user_id <> ${userId}))
         or (w.id = ${userId} and owner.user_id <> ${userId})
      limit 1`;
    return row;
  }

  /** Deletes the workspaces `userId` owns (their data goes with the account's erasure, which has their id). */
  async deleteOwnedBy(tx: TransactionSql, userId: string): Promise<void> {
    await tx`delete from auth.workspaces where id in (select workspace_id from auth.members where user_id = ${userId} and role = 'owner')`;
  }
}
