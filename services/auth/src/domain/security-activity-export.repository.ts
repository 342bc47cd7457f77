import type { Sql } from '@asistente/kit';

export interface ExportedActivity {
  id: string;
  type: string;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  detail: unknown;
  /** Where the next page starts after it: its time as PostgreSQL writes it (to the microsecond). */
  cursorAt: string;
}

/** The security activity log for "Descargar mis datos": newest first, in keyset pages on (user_id, at, id). */
export class SecurityActivityExportRepository {
  constructor(private readonly sql: Sql) {}

  async rows(userId: string, after: string | undefined, limit: number): Promise<ExportedActivity[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedActivity[]>`
      select id, type, at, ip, user_agent, detail, at::text as cursor_at from auth.security_activity
      where user_id = ${userId} ${at && id ? this.sql`and (at, id) < (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      order by at desc, id desc limit ${limit}`;
  }
}
