import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/database.js';

/**
 * An account as registration leaves it, written straight to the tables (for tests that run no auth service):
 * the user row (its trigger writes the sessions mark) and the workspace it founds, with its id, owned by it.
 */
export async function insertAccount(sql: Sql, { id = randomUUID(), email = `ana.${randomUUID()}@ejemplo.es` }: { id?: string; email?: string } = {}): Promise<string> {
  await sql.begin(async (tx) => {
    await tx`insert into auth.users (id, first_name, last_name, email, password_hash) values (${id}, 'Ana', 'López', ${email}, 'x')`;
    await tx`insert into auth.workspaces (id, name) values (${id}, 'Mi empresa')`;
    await tx`insert into auth.members (workspace_id, user_id, role) values (${id}, ${id}, 'owner')`;
  });
  return id;
}
