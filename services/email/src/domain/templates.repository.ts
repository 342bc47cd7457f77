import type { EmailTemplateBody } from '@asistente/contracts';
import type { Sql } from '@asistente/kit';

export interface TemplateRow {
  id: string;
  name: string;
  subject: string;
  body: string;
  createdAt: Date;
}

/** `email.templates`: the owner's reusable mails, oldest first (the screen shows the first 5). */
export class TemplatesRepository {
  constructor(private readonly sql: Sql) {}

  list(userId: string): Promise<TemplateRow[]> {
    return this.sql<TemplateRow[]>`
      select id, name, subject, body, created_at from email.templates where user_id = ${userId} order by created_at, id`;
  }

  async find(userId: string, id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.sql<TemplateRow[]>`
      select id, name, subject, body, created_at from email.templates where user_id = ${userId} and id = ${id}`;
    return row;
  }

  async insert(userId: string, body: EmailTemplateBody): Promise<TemplateRow> {
    const [row] = await this.sql<TemplateRow[]>`
      insert into email.templates (user_id, name, subject, body) values (${userId}, ${body.name}, ${body.subject}, ${body.body})
      returning id, name, subject, body, created_at`;
    return row!;
  }

  async update(userId: string, id: string, body: EmailTemplateBody): Promise<TemplateRow | undefined> {
    const [row] = await this.sql<TemplateRow[]>`
      update email.templates set name = ${body.name}, subject = ${body.subject}, body = ${body.body}, updated_at = now()
      where user_id = ${userId} and id = ${id}
      returning id, name, subject, body, created_at`;
    return row;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql`delete from email.templates where user_id = ${userId} and id = ${id} returning id`).length > 0;
  }
}
