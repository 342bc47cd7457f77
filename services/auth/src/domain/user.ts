import type { User } from '@asistente/contracts';

export interface UserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  company: string | null;
  phone: string | null;
  createdAt: Date;
}

/** The public view of a user: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    phone: row.phone,
    createdAt: row.createdAt.toISOString(),
  };
}
