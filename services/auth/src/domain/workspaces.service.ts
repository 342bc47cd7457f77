import { randomUUID } from 'node:crypto';
import type { Workspace, WorkspaceMember } from '@asistente/contracts';
import { badRequest, notFound, unauthorized, type ActingMember, type Sql, type TransactionSql } from '@asistente/kit';
import type { WorkspacesRepository } from './workspaces.repository.js';

/** The name of a workspace whose founder gave no company. */
export const DEFAULT_WORKSPACE_NAME = 'Mi empresa';
const NAME_REQUIRED = 'El nombre del espacio de trabajo es requerido';


export function workspaceName(company: string | null | undefined): string {
  return company?.trim() || DEFAULT_WORKSPACE_NAME;
}

/**
 * Workspaces as their members see them: the one a session acts in, the ones a person can switch to, the
 * members of one. A workspace made with an account takes the account's id (see the migration).
 */
export class WorkspacesService {
  constructor(
    private readonly sql: Sql,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  /** The founder's own workspace, made with their account in the registration's transaction. */
  found(tx: TransactionSql, userId: string, company: string | null): Promise<Workspace> {
    return this.workspaces.create(tx, { id: userId, name: workspaceName(company) }, userId);
  }

  /**
   * Where a sign-in opens (the workspace used last). A person left with none (removed from the only one they
   * had) gets a new workspace of their own, so an account always has somewhere to work.
   */
  async signIn(userId: string, company: string | null): Promise<Workspace> {
    const opened = (await this.workspaces.openedAtSignIn(userId)) ?? (await this.sql.begin((tx) => this.foundAnother(tx, userId, company)));
    await this.workspaces.opened(opened.id, userId);
    return opened;
  }

  private async foundAnother(tx: TransactionSql, userId: string, company: string | null): Promise<Workspace> {
    const own = !(await this.workspaces.exists(userId, tx));
    return this.workspaces.create(tx, { id: own ? userId : randomUUID(), name: workspaceName(company) }, userId);
  }

  /** A session for another workspace of the same person; one they do not belong to is not found. */
  async switchTo(userId: string, workspaceId: string): Promise<Workspace> {
    const workspace = await this.workspaces.find(workspaceId, userId);
    if (!workspace) throw notFound('Espacio de trabajo no encontrado');
    await this.workspaces.opened(workspace.id, userId);
    return workspace;
  }

  /** The workspace the session acts in, with the caller's role as it stands now. */
  async current(member: ActingMember): Promise<Workspace> {
    const workspace = await this.workspaces.find(member.workspaceId, member.id);
    // The token check found the membership a moment ago: gone since, the session is over.
    if (!workspace) throw unauthorized();
    await this.workspaces.active(workspace.id, member.id);
    return workspace;
  }

  list(userId: string): Promise<Workspace[]> {
    return this.workspaces.listFor(userId);
  }

  async rename(member: ActingMember, name: string): Promise<Workspace> {
    const trimmed = name.trim();
    if (!trimmed) throw badRequest(NAME_REQUIRED);
    await this.workspaces.rename(member.workspaceId, trimmed);
    return this.current(member);
  }

  members(member: ActingMember): Promise<WorkspaceMember[]> {
    return this.workspaces.members(member.workspaceId);
  }
}
