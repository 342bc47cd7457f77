import type { MemberRole, WorkspaceRole } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';

export interface InvitationRow {
  id: string;
  workspaceId: string;
  email: string;
  role: MemberRole;
  tokenEnc: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An open invitation found by its link, with what the invitation page shows. */
export interface FoundInvitation extends InvitationRow {
  workspaceName: string;
  inviterFirstName: string | null;
  inviterLastName: string | null;
}

export interface NewInvitation {
  id: string;
  workspaceId: string;
  email: string;
  role: MemberRole;
  tokenHash: string;
  tokenEnc: string;
  invitedBy: string;
  expiresAt: Date;
}

/** auth.invitations: links to join a workspace. Open means neither accepted nor cancelled, and not expired. */
export class InvitationsRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: TransactionSql, invitation: NewInvitation): Promise<InvitationRow> {
    const [row] = await tx<InvitationRow[]>`
      insert into auth.invitations (id, workspace_id, email, role, token_hash, token_enc, invited_by, expires_at)
      values (${invitation.id}, ${invitation.workspaceId}, ${invitation.email}, ${invitation.role}, ${invitation.tokenHash},
              ${invitation.tokenEnc}, ${invitation.invitedBy}, ${invitation.expiresAt})
      returning id, workspace_id, email, role, token_enc, created_at, expires_at`;
    return row!;
  }

  /** Invitations sent by the workspace since `since`, cancelled and replaced ones included. */
  async sentSince(tx: TransactionSql, workspaceId: string, since: Date): Promise<number> {
    const [row] = await tx<{ n: number }[]>`select count(*)::int as n from auth.invitations where workspace_id = ${workspaceId} and created_at > ${since}`;
    return row?.n ?? 0;
  }

  /** Open invitations, except the one to `exceptEmail` (about to be replaced). */
  async openCount(tx: TransactionSql, workspaceId: string, exceptEmail: string): Promise<number> {
    const [row] = await tx<{ n: number }[]>`
      select count(*)::int as n from auth.invitations i
      where i.workspace_id = ${workspaceId} and i.accepted_at is null and i.cancelled_at is null and i.expires_at > now() and lower(i.email) <> lower(${exceptEmail})`;
    return row?.n ?? 0;
  }

  /** Inviting an address again replaces its earlier invitation (expired or not): its link stops working. */
  async cancelFor(tx: TransactionSql, workspaceId: string, email: string): Promise<void> {
    await tx`
      update auth.invitations set cancelled_at = now()
      where workspace_id = ${workspaceId} and lower(email) = lower(${email}) and accepted_at is null and cancelled_at is null`;
  }

  async listOpen(workspaceId: string): Promise<InvitationRow[]> {
    return this.sql<InvitationRow[]>`
      select i.id, i.workspace_id, i.email, i.role, i.token_enc, i.created_at, i.expires_at from auth.invitations i
      where i.workspace_id = ${workspaceId} and i.accepted_at is null and i.cancelled_at is null and i.expires_at > now()
      order by i.created_at desc, i.id`;
  }

  /** Cancels an open invitation of the workspace; false when there is none with that id. */
  async cancel(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.sql`
      update auth.invitations i set cancelled_at = now()
      where i.id = ${id} and i.workspace_id = ${workspaceId} and i.accepted_at is null and i.cancelled_at is null and i.expires_at > now()`;
    return result.count > 0;
  }

  async findOpen(tokenHash: string): Promise<FoundInvitation | undefined> {
    const [row] = await this.sql<FoundInvitation[]>`
      select i.id, i.workspace_id, i.email, i.role, i.token_enc, i.created_at, i.expires_at, w.name as workspace_name,
             u.first_name as inviter_first_name, u.last_name as inviter_last_name
      from auth.invitations i join auth.workspaces w on w.id = i.workspace_id left join auth.users u on u.id = i.invited_by
      where i.token_hash = ${tokenHash} and i.accepted_at is null and i.cancelled_at is null and i.expires_at > now()`;
    return row;
  }

  /** Spends the invitation; undefined when another acceptance (or a cancellation) got there first. */
  async claim(tx: TransactionSql, id: string): Promise<{ workspaceId: string; role: WorkspaceRole } | undefined> {
    const [row] = await tx<{ workspaceId: string; role: WorkspaceRole }[]>`
      update auth.invitations i set accepted_at = now()
      where i.id = ${id} and i.accepted_at is null and i.cancelled_at is null and i.expires_at > now()
      returning i.workspace_id, i.role`;
    return row;
  }
}
