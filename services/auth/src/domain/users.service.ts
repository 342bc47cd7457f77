import type { Outbox, SecurityClient, Sql } from '@asistente/kit';
import { conflict, createEvent, notFound, securityActivityEvent, unauthorized } from '@asistente/kit';
import type { ChangePasswordBody, LoginBody, RegisterBody, UpdateProfileBody, User } from '@asistente/contracts';
import type { PasswordHasher } from './passwords.js';
import { newPassword, normalizeEmail, passwordLength, optionalText, personName } from './rules.js';
import { toUser } from './user.js';
import type { UsersRepository } from './users.repository.js';

export const INVALID_CREDENTIALS = 'Correo o contraseña incorrectos';

export interface UsersServiceDeps {
  sql: Sql;
  users: UsersRepository;
  hasher: PasswordHasher;
  outbox: Outbox;
}

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  async register(input: RegisterBody): Promise<User> {
    const firstName = personName(input.firstName, 'El nombre es requerido');
    const lastName = personName(input.lastName, 'El apellido es requerido');
    const password = newPassword(input.password);
    const passwordHash = await this.deps.hasher.hash(password);
    const { sql, users, outbox } = this.deps;
    const row = await sql.begin(async (tx) => {
      const inserted = await users.insert(tx, {
        firstName,
        lastName,
        email: normalizeEmail(input.email),
        passwordHash,
        company: optionalText(input.company),
        phone: optionalText(input.phone),
      });
      if (inserted) await outbox.append(tx, [createEvent('auth.user.registered', inserted.id, {})]);
      return inserted;
    });
    if (!row) throw conflict('Ya existe una cuenta con ese correo electrónico', 'EMAIL_TAKEN');
    return toUser(row);
  }

  /**
   * Unknown email and wrong password answer the same, after the same work. The account's security log gets
   * the login or the failed attempt (an unknown address has no account, so no log).
   */
  async login(input: LoginBody, client: SecurityClient): Promise<User> {
    passwordLength(input.password, 'La contraseña debe tener al menos 6 caracteres');
    const row = await this.deps.users.findByEmail(normalizeEmail(input.email));
    const ok = row
      ? await this.deps.hasher.verify(input.password, row.passwordHash)
      : await this.deps.hasher.verifyNothing(input.password);
    if (row) await this.record(row.id, ok ? 'login.succeeded' : 'login.failed', client);
    if (!row || !ok) throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    return toUser(row);
  }

  async logout(userId: string, client: SecurityClient): Promise<void> {
    await this.record(userId, 'logout', client);
  }

  /** A line of the security log through auth's outbox, like every other service's. */
  private async record(userId: string, activity: 'login.succeeded' | 'login.failed' | 'logout', client: SecurityClient): Promise<void> {
    await this.deps.sql.begin((tx) => this.deps.outbox.append(tx, [securityActivityEvent(userId, activity, client)]));
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

  async changePassword(userId: string, input: ChangePasswordBody, client: SecurityClient): Promise<void> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw notFound('Usuario no encontrado');
    const password = newPassword(input.newPassword);
    if (!(await this.deps.hasher.verify(input.currentPassword, row.passwordHash))) {
      throw unauthorized('La contraseña actual no es correcta', 'INVALID_CREDENTIALS');
    }
    const passwordHash = await this.deps.hasher.hash(password);
    await this.deps.sql.begin(async (tx) => {
      await this.deps.users.updatePasswordHash(userId, passwordHash, tx);
      await this.deps.outbox.append(tx, [securityActivityEvent(userId, 'password.changed', client)]);
    });
  }
}
