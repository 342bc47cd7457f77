import type { Sql } from '@asistente/kit';

export interface ExportedActivity {
  id: string;
  type: string;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  detail: unknown;
  /** Who did it (the name as it was then), when a session did. */
  actorName: string | null;
  /** Where the next page starts after it: its time as PostgreSQL writes it (to the microsecond). */
  cursorAt: string;
}

/** The security activity log for "Descargar mis datos": newest first, in keyset pages on (at, id). */
export class SecurityActivityExportRepository {
  constructor(private readonly sql: Sql) {}

  /** A workspace's whole log (the owner's archive). */
  async rows(workspaceId: string, after: string | undefined, limit: number): Promise<ExportedActivity[]> {
    return this.page(this.sql`user_id = ${workspaceId}`, after, limit);
  }

  /** The lines a person caused, in any workspace (a member's own archive). */
  async rowsBy(actorId: string, after: string | undefined, limit: number): Promise<ExportedActivity[]> {
    return this.page(this.sql`actor_id = ${actorId}`, after, limit);
  }

  private page(whose: ReturnType<Sql>, after: string | undefined, limit: number): Promise<ExportedActivity[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedActivity[]>`
      select id, type, at, ip, user_agent, detail, actor_name, at::text as cursor_at from auth.security_activity
      where ${whose} ${at && id ? this.sql`and (at, id) < (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      order by at desc, id desc limit ${limit}`;
  }
}
