import type { Sql } from '@asistente/kit';

export interface ExportedHour {
  metric: string;
  /** The hour as PostgreSQL writes it: also where the next page starts. */
  hour: string;
  value: string;
}

export interface ExportedTotal {
  metric: string;
  value: string;
}

/** The user's rollups for "Descargar mis datos", in keyset pages on the primary keys. */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async hourly(userId: string, after: [string, string] | undefined, limit: number): Promise<ExportedHour[]> {
    return this.sql<ExportedHour[]>`
      select metric, hour::text as hour, value::text as value from analytics.hourly
      where user_id = ${userId} ${after ? this.sql`and (metric, hour) > (${after[0]}, ${after[1]}::timestamptz)` : this.sql``}
      order by metric, hour limit ${limit}`;
  }

  async totals(userId: string, after: string | undefined, limit: number): Promise<ExportedTotal[]> {
    return this.sql<ExportedTotal[]>`
      select metric, value::text as value from analytics.totals
      where user_id = ${userId} ${after ? this.sql`and metric > ${after}` : this.sql``}
      order by metric limit ${limit}`;
  }
}
