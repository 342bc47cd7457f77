import type { MemberRole, WorkspaceMember } from '@asistente/contracts';
import { badRequest, conflict, createEvent, notFound, roleRefused, type ActingMember, type Outbox, type Revocations, type SecurityClient, type Sql } from '@asistente/kit';
import type { PasswordAttempts } from './password-attempts.js';
import type { PasswordHasher } from './passwords.js';
import type { PersonalTokensRepository } from './personal-tokens.repository.js';
import type { UsersRepository } from './users.repository.js';
import type { WorkspacesRepository } from './workspaces.repository.js';


const MEMBER_NOT_FOUND = 'Miembro no encontrado';

export interface MembersDeps {
  sql: Sql;
  /** A removal is told to the services that keep something of the member (the inbox's assignments). */
  outbox: Outbox;
  workspaces: WorkspacesRepository;
  users: UsersRepository;
  tokens: PersonalTokensRepository;
  revocations: Revocations;
  hasher: PasswordHasher;
  /** The owner's password, asked again for a transfer, counts with the login's wrong ones. */
  attempts: PasswordAttempts;
}

/**
 * The members of a workspace as its managers change them. A role change ends the member's sessions in the
 * workspace (a new one carries the new role) and lowers their personal tokens there to it; a removal ends
 * them and deletes those tokens at once, on every replica (the membership every token check reads is gone).
 */
export class MembersService {
  constructor(private readonly deps: MembersDeps) {}

  async changeRole(actor: ActingMember, userId: string, role: MemberRole): Promise<WorkspaceMember> {
    const { sql, workspaces, tokens, revocations } = this.deps;
    await sql.begin(async (tx) => {
      await workspaces.lock(tx, actor.workspaceId);
      const current = await workspaces.roleOf(actor.workspaceId, userId, tx);
      if (!current) throw notFound(MEMBER_NOT_FOUND);
      if (current === 'owner') throw ownerFixed('No se puede cambiar el rol del propietario: primero transfiere el espacio de trabajo');
      if (current === role) return;
      await workspaces.setRole(tx, actor.workspaceId, userId, role);
      await tokens.lowerRole(tx, actor.workspaceId, userId, role);
      await revocations.endMemberSessions(actor.workspaceId, userId, tx);
    });
    const member = await workspaces.member(actor.workspaceId, userId);
    if (!member) throw notFound(MEMBER_NOT_FOUND);
    return member;
  }

  async remove(actor: ActingMember, userId: string): Promise<void> {
    const { sql, outbox, workspaces, tokens, revocations } = this.deps;
    await sql.begin(async (tx) => {
      await workspaces.lock(tx, actor.workspaceId);
      const current = await workspaces.roleOf(actor.workspaceId, userId, tx);
      if (!current) throw notFound(MEMBER_NOT_FOUND);
      if (current === 'owner') throw ownerFixed('No se puede quitar al propietario del espacio de trabajo');
      // The workspace carries its founder's id, which the assistant and the services act under: the founder stays.
      if (userId === actor.workspaceId) throw ownerFixed('No se puede quitar a quien creó el espacio de trabajo');
      await tokens.deleteAllIn(tx, actor.workspaceId, userId);
      await workspaces.removeMember(tx, actor.workspaceId, userId);
      await outbox.append(tx, [createEvent('workspace.member.left', actor.workspaceId, { memberId: userId })]);
    });
    revocations.memberLeft(actor.workspaceId, userId);
  }

  /**
   * The owner hands the workspace to one of its admins and stays as an admin. Both sessions there end (their
   * roles changed); the caller gets a new one from the route.
   */
  async transfer(owner: ActingMember, userId: string, password: string, client: SecurityClient): Promise<void> {
    const { sql, workspaces, users, hasher, attempts, tokens, revocations } = this.deps;
    if (userId === owner.id) throw badRequest('Ya eres el propietario de este espacio de trabajo');
    const self = await users.findById(owner.id);
    if (!self) throw notFound(MEMBER_NOT_FOUND);
    if (!(await attempts.check({ email: self.email, ip: client.ip }, () => hasher.verify(password, self.passwordHash)))) {
      throw badRequest('La contraseña no es correcta', 'INVALID_PASSWORD');
    }
    await sql.begin(async (tx) => {
      await workspaces.lock(tx, owner.workspaceId);
      if ((await workspaces.roleOf(owner.workspaceId, owner.id, tx)) !== 'owner') throw roleRefused();
      const target = await workspaces.roleOf(owner.workspaceId, userId, tx);
      if (!target) throw notFound(MEMBER_NOT_FOUND);
      if (target !== 'admin') throw conflict('Solo puedes transferir el espacio de trabajo a un administrador', 'NOT_AN_ADMIN');
      // The one-owner index: the owner steps down before the admin steps up.
      await workspaces.setRole(tx, owner.workspaceId, owner.id, 'admin');
      await workspaces.setRole(tx, owner.workspaceId, userId, 'owner');
      await tokens.lowerRole(tx, owner.workspaceId, owner.id, 'admin');
      await revocations.endMemberSessions(owner.workspaceId, owner.id, tx);
      await revocations.endMemberSessions(owner.workspaceId, userId, tx);
    });
  }
}

const ownerFixed = (message: string) => conflict(message, 'OWNER_FIXED');
