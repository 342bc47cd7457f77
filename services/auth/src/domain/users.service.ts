import type { Outbox, Revocations, SecurityClient, Sql } from '@asistente/kit';
import { conflict, createEvent, notFound, securityActivityEvent, unauthorized } from '@asistente/kit';
import type { ChangePasswordBody, LoginBody, RegisterBody, UpdateProfileBody, User, Workspace } from '@asistente/contracts';
import type { PasswordAttempts } from './password-attempts.js';
import type { PasswordHasher } from './passwords.js';
import type { PersonalTokensRepository } from './personal-tokens.repository.js';
import { newPassword, normalizeEmail, passwordLength, optionalText, personName } from './rules.js';
import { toUser } from './user.js';
import type { UsersRepository } from './users.repository.js';
import type { WorkspacesService } from './workspaces.service.js';

export const INVALID_CREDENTIALS = 'Correo o contraseña incorrectos';

export interface UsersServiceDeps {
  sql: Sql;
  users: UsersRepository;
  hasher: PasswordHasher;
  outbox: Outbox;
  /** The wrong-password budget every password check shares (per account and per address). */
  attempts: PasswordAttempts;
  /** A new password revokes them all. */
  tokens: PersonalTokensRepository;
  revocations: Revocations;
  workspaces: WorkspacesService;
}

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** The account and, in the same transaction, the workspace it founds (named after its company). */
  async register(input: RegisterBody): Promise<{ user: User; workspace: Workspace }> {
    const firstName = personName(input.firstName, 'El nombre es requerido');
    const lastName = personName(input.lastName, 'El apellido es requerido');
    const password = newPassword(input.password);
    const passwordHash = await this.deps.hasher.hash(password);
    const { sql, users, outbox, workspaces } = this.deps;
    const created = await sql.begin(async (tx) => {
      const inserted = await users.insert(tx, {
        firstName,
        lastName,
        email: normalizeEmail(input.email),
        passwordHash,
        company: optionalText(input.company),
        phone: optionalText(input.phone),
      });
      if (!inserted) return undefined;
      const workspace = await workspaces.found(tx, inserted.id, inserted.company);
      await outbox.append(tx, [createEvent('auth.user.registered', inserted.id, {})]);
      return { user: toUser(inserted), workspace };
    });
    if (!created) throw conflict('Ya existe una cuenta con ese correo electrónico', 'EMAIL_TAKEN');
    return created;
  }

  /**
   * The person, and the workspace the session opens in (the one used last). Unknown email and wrong password
   * answer the same, after the same work. The workspace's security log gets the sign-in, the account's own the
   * failed attempt (an unknown address has no account, so no log). Wrong passwords count per account (the
   * typed address, known or not) and per client address.
   */
  async login(input: LoginBody, client: SecurityClient): Promise<{ user: User; workspace: Workspace }> {
    passwordLength(input.password, 'La contraseña debe tener al menos 6 caracteres');
    const email = normalizeEmail(input.email);
    const row = await this.deps.users.findByEmail(email);
    const { hasher } = this.deps;
    const ok = await this.deps.attempts.check({ email, ip: client.ip }, () =>
      row ? hasher.verify(input.password, row.passwordHash) : hasher.verifyNothing(input.password),
    );
    if (row && !ok) await this.record(row.id, 'login.failed', client);
    if (!row || !ok) throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    const workspace = await this.deps.workspaces.signIn(row.id, row.company);
    await this.record(workspace.id, 'login.succeeded', { ...client, actorId: row.id });
    return { user: toUser(row), workspace };
  }

  /** Into the log of the workspace the session acted in, by its person. */
  async logout(member: { id: string; workspaceId: string }, client: SecurityClient): Promise<void> {
    await this.record(member.workspaceId, 'logout', { ...client, actorId: member.id });
  }

  /**
   * A line of the security log through auth's outbox, like every other service's. A failed sign-in is whoever
   * typed the address, so it names no one.
   */
  private async record(logOf: string, activity: 'login.succeeded' | 'login.failed' | 'logout', client: SecurityClient): Promise<void> {
    await this.deps.sql.begin((tx) => this.deps.outbox.append(tx, [securityActivityEvent(logOf, activity, client)]));
  }

  async get(userId: string): Promise<User> {
    const row = await this.deps.users.findById(userId);
    // A valid token for a user that no longer exists is a dead session.
    if (!row) throw unauthorized();
    return toUser(row);
  }

  async updateProfile(userId: string, input: UpdateProfileBody): Promise<User> {
    const row = await this.deps.users.updateProfile(userId, {
      firstName: personName(input.firstName, 'El nombre es requerido'),
      lastName: personName(input.lastName, 'El apellido es requerido'),
      company: optionalText(input.company),
      phone: optionalText(input.phone),
    });
    if (!row) throw notFound('Usuario no encontrado');
    return toUser(row);
  }

  /**
   * The current password (counted with the login's wrong ones), then in one transaction: the new hash, every
   * personal token revoked (whoever held one loses it; the log says how many) and every other session ended.
   * The sessions end under the user's row lock, so a token being created by one of them meanwhile is refused.
   */
  async changePassword(userId: string, keepJti: string, input: ChangePasswordBody, client: SecurityClient): Promise<void> {
    const { users, hasher, attempts, tokens, outbox, revocations } = this.deps;
    const row = await users.findById(userId);
    if (!row) throw notFound('Usuario no encontrado');
    const password = newPassword(input.newPassword);
    if (!(await attempts.check({ email: row.email, ip: client.ip }, () => hasher.verify(input.currentPassword, row.passwordHash)))) {
      throw unauthorized('La contraseña actual no es correcta', 'INVALID_CREDENTIALS');
    }
    const passwordHash = await hasher.hash(password);
    await this.deps.sql.begin(async (tx) => {
      await users.updatePasswordHash(userId, passwordHash, tx);
      const revokedTokens = await tokens.deleteAllOf(tx, userId);
      await outbox.append(tx, [securityActivityEvent(userId, 'password.changed', client, { revokedTokens })]);
      await revocations.endOtherSessions(userId, keepJti, new Date(), tx);
    });
  }
}
