import type { Sql, TransactionSql } from '@asistente/kit';
import type { UserRow } from './user.js';

export type NewUser = Omit<UserRow, 'id' | 'createdAt'>;

const USER_COLUMNS: (keyof NewUser)[] = ['firstName', 'lastName', 'email', 'passwordHash', 'company', 'phone'];
type Profile = Pick<NewUser, 'firstName' | 'lastName' | 'company' | 'phone'>;
const PROFILE_COLUMNS: (keyof Profile)[] = ['firstName', 'lastName', 'company', 'phone'];

export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  /** Undefined when the address is taken (any case). */
  async insert(tx: TransactionSql, user: NewUser): Promise<UserRow | undefined> {
    const [row] = await tx<UserRow[]>`
      insert into auth.users ${tx(user, USER_COLUMNS)}
      on conflict ((lower(email))) do nothing
      returning *`;
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`select * from auth.users where lower(email) = lower(${email})`;
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`select * from auth.users where id = ${id}`;
    return row;
  }

  async updateProfile(id: string, profile: Profile): Promise<UserRow | undefined> {
    const [row] = await this.sql<UserRow[]>`
      update auth.users set ${this.sql(profile, PROFILE_COLUMNS)}, updated_at = now()
      where id = ${id} returning *`;
    return row;
  }

  /** In `tx` when the change belongs to a larger one (a reset link spent with it). */
  async updatePasswordHash(id: string, passwordHash: string, tx: Sql | TransactionSql = this.sql): Promise<void> {
    await tx`update auth.users set password_hash = ${passwordHash}, updated_at = now() where id = ${id}`;
  }
}
