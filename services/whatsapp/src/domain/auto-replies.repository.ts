import type { Sql, TransactionSql } from '@asistente/kit';

export interface AutoReplyRow {
  id: string;
  keyword: string;
  response: string;
  active: boolean;
  createdAt: Date;
}

export interface AutoReplyFields {
  keyword: string;
  keywordFolded: string;
  response: string;
  active: boolean;
}

/** `whatsapp.auto_replies`: keyword rules; keyword_folded carries the per-user uniqueness. */
export class AutoRepliesRepository {
  constructor(private readonly sql: Sql) {}

  list(userId: string): Promise<AutoReplyRow[]> {
    return this.sql<AutoReplyRow[]>`
      select id, keyword, response, active, created_at from whatsapp.auto_replies
      where user_id = ${userId} order by created_at, id`;
  }

  active(tx: TransactionSql, userId: string): Promise<AutoReplyRow[]> {
    return tx<AutoReplyRow[]>`
      select id, keyword, response, active, created_at from whatsapp.auto_replies
      where user_id = ${userId} and active`;
  }

  async find(userId: string, id: string): Promise<AutoReplyRow | undefined> {
    const [row] = await this.sql<AutoReplyRow[]>`
      select id, keyword, response, active, created_at from whatsapp.auto_replies where user_id = ${userId} and id = ${id}`;
    return row;
  }

  async insert(userId: string, f: AutoReplyFields): Promise<AutoReplyRow> {
    const [row] = await this.sql<AutoReplyRow[]>`
      insert into whatsapp.auto_replies (user_id, keyword, keyword_folded, response, active)
      values (${userId}, ${f.keyword}, ${f.keywordFolded}, ${f.response}, ${f.active})
      returning id, keyword, response, active, created_at`;
    return row!;
  }

  async update(userId: string, id: string, f: AutoReplyFields): Promise<AutoReplyRow | undefined> {
    const [row] = await this.sql<AutoReplyRow[]>`
      update whatsapp.auto_replies set keyword = ${f.keyword}, keyword_folded = ${f.keywordFolded},
        response = ${f.response}, active = ${f.active}
      where user_id = ${userId} and id = ${id}
      returning id, keyword, response, active, created_at`;
    return row;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.sql`delete from whatsapp.auto_replies where user_id = ${userId} and id = ${id}`;
    return result.count === 1;
  }
}
