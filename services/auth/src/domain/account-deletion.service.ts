import { randomUUID } from 'node:crypto';
import { ERASING_SERVICE_LABELS, ERASING_SERVICES, type AccountDeletionProgress, type ErasingService } from '@asistente/contracts';
import { badRequest, conflict, createEvent, notFound, unauthorized, type Outbox, type Revocations, type SecurityClient, type Sql } from '@asistente/kit';
import type { AccountDeletionsRepository } from './account-deletions.repository.js';
import type { PasswordAttempts } from './password-attempts.js';
import type { PasswordHasher } from './passwords.js';
import type { UsersRepository } from './users.repository.js';
import type { WorkspacesRepository } from './workspaces.repository.js';

export const WRONG_PASSWORD = 'La contraseña no es correcta: no se ha borrado nada';
export const DELETION_NOT_FOUND = 'No hay ninguna eliminación de cuenta con ese identificador';

export interface AccountDeletionDeps {
  sql: Sql;
  users: UsersRepository;
  /** The workspace the account founded goes with it (its data is erased under the same id). */
  workspaces: WorkspacesRepository;
  deletions: AccountDeletionsRepository;
  hasher: PasswordHasher;
  /** The password asked again counts with the login's wrong ones. */
  attempts: PasswordAttempts;
  outbox: Outbox;
  revocations: Revocations;
}

/**
 * "Eliminar mi cuenta": the password again, then in one transaction the deletion's record, the workspace the
 * person owns alone, the user row (sessions, tokens and memberships end with it) and one `user.deleted` event
 * for every service to erase what is under the person's id. Every member may leave this way; a workspace
 * others still work in is not erased with them (its owner transfers it first), nor is one founded with
 * the person's id and since transferred.
 */
export class AccountDeletionService {
  constructor(private readonly deps: AccountDeletionDeps) {}

  async request(userId: string, password: string, client: SecurityClient): Promise<string> {
    const { sql, users, workspaces, deletions, hasher, attempts, outbox, revocations } = this.deps;
    const user = await users.findById(userId);
    if (!user) throw unauthorized();
    const blocked = await workspaces.blockingErasure(userId);
    if (blocked?.reason === 'shared') {
      throw conflict(`Antes de eliminar tu cuenta, transfiere el espacio de trabajo «${blocked.name}» a un administrador o quita a sus miembros`, 'WORKSPACE_HAS_MEMBERS');
    }
    if (blocked) {
      throw conflict(`Tu cuenta creó el espacio de trabajo «${blocked.name}», que ahora es de otra persona: pídele que lo elimine o que te lo devuelva antes de eliminar tu cuenta`, 'WORKSPACE_FOUNDED');
    }
    const right = await attempts.check({ email: user.email, ip: client.ip }, () => hasher.verify(password, user.passwordHash));
    if (!right) throw badRequest(WRONG_PASSWORD, 'INVALID_PASSWORD');
    const id = randomUUID();
    const deleted = await sql.begin(async (tx) => {
      await deletions.create(tx, id, ERASING_SERVICES);
      await workspaces.deleteOwnedBy(tx, userId);
      if (!(await deletions.deleteUser(tx, userId))) return false;
      await outbox.append(tx, [createEvent('user.deleted', userId, { deletionId: id })]);
      return true;
    });
    if (!deleted) throw unauthorized();
    await revocations.userDeleted(userId);
    return id;
  }

  async progress(id: string): Promise<AccountDeletionProgress> {
    const found = await this.deps.deletions.find(id);
    if (!found) throw notFound(DELETION_NOT_FOUND);
    const order = (service: string) => {
      const index = (ERASING_SERVICES as readonly string[]).indexOf(service);
      return index < 0 ? ERASING_SERVICES.length : index;
    };
    const services = [...found.services]
      .sort((a, b) => order(a.service) - order(b.service) || a.service.localeCompare(b.service))
      .map((s) => ({ service: s.service, label: ERASING_SERVICE_LABELS[s.service as ErasingService] ?? s.service, status: s.status, problems: s.problems }));
    return {
      id,
      status: found.deletion.finishedAt ? 'done' : 'running',
      requestedAt: found.deletion.requestedAt.toISOString(),
      finishedAt: found.deletion.finishedAt?.toISOString() ?? null,
      services,
    };
  }
}
