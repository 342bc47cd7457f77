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

/** One time a team inbox conversation was open (analytics.conversation_openings), times as PostgreSQL writes them. */
export interface ExportedOpening {
  conversationId: string;
  openedAt: string;
  openedBy: string;
  firstAnswerAt: string | null;
  firstAnswerAuthor: string | null;
  firstAnswerMember: string | null;
  assigneeId: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface ExportedAnswerer {
  conversationId: string;
  answerer: string;
  lastAnsweredAt: string;
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

  /** Keyset on (conversation, opened at, opening event): each conversation's openings in the order they happened. */
  async openings(userId: string, after: [string, string, string] | undefined, limit: number): Promise<ExportedOpening[]> {
    return this.sql<ExportedOpening[]>`
      select conversation_id, opened_at::text as opened_at, opened_by, first_answer_at::text as first_answer_at, first_answer_author,
        first_answer_member, assignee_id, resolved_at::text as resolved_at, resolved_by
      from analytics.conversation_openings
      where user_id = ${userId}
        ${after ? this.sql`and (conversation_id, opened_at, opened_by) > (${after[0]}::uuid, ${after[1]}::timestamptz, ${after[2]}::uuid)` : this.sql``}
      order by conversation_id, opened_at, opened_by limit ${limit}`;
  }

  async answerers(userId: string, after: [string, string] | undefined, limit: number): Promise<ExportedAnswerer[]> {
    return this.sql<ExportedAnswerer[]>`
      select conversation_id, answerer, last_answered_at::text as last_answered_at from analytics.conversation_answerers
      where user_id = ${userId} ${after ? this.sql`and (conversation_id, answerer) > (${after[0]}::uuid, ${after[1]})` : this.sql``}
      order by conversation_id, answerer limit ${limit}`;
  }
}
