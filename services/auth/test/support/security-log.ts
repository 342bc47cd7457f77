import type { Sql } from '@asistente/kit';

/** Waits for auth's consumer to have written the security log's line (a state, not a time). */
export async function logged(sql: Sql, userId: string, type: string): Promise<{ detail: Record<string, unknown> }> {
  for (let i = 0; i < 500; i++) {
    const [row] = await sql<{ detail: Record<string, unknown> }[]>`select detail from auth.security_activity where user_id = ${userId} and type = ${type}`;
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${type} line for ${userId}`);
}
