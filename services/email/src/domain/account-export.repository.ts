import type { Sql } from '@asistente/kit';

export interface ExportedMail {
  id: string;
  account: string;
  folder: string;
  messageId: string | null;
  inReplyTo: string | null;
  refs: string | null;
  fromAddr: string;
  toAddrs: string;
  ccAddrs: string;
  replyTo: string | null;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  preview: string;
  isRead: boolean;
  hasAttachments: boolean;
  sentAt: Date;
  /** The body and the attachments are stored in full: the mail can be written back as an .eml. */
  whole: boolean;
  /** Where the next page starts after it: its time as PostgreSQL writes it (to the microsecond). */
  at: string;
}

export interface ExportedAttachment {
  id: string;
  messageId: string;
  name: string;
  contentType: string;
  content: Buffer;
}

export interface ExportedTemplate {
  id: string;
  name: string;
  subject: string;
  body: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What "Descargar mis datos" reads of the mail: messages in keyset pages on (sent_at, id) and the attachments
 * whose bytes are stored. Never an account's credentials or server settings.
 */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async mails(userId: string, whole: boolean, after: string | undefined, limit: number): Promise<ExportedMail[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedMail[]>`
      select * from (
        select m.id, a.email as account, m.folder, m.message_id, m.in_reply_to, m.refs, m.from_addr, m.to_addrs, m.cc_addrs,
          m.reply_to, m.subject, m.text_body, m.html_body, m.preview, m.is_read, m.has_attachments, m.sent_at,
          m.body_fetched and not m.partial and m.parse_error is null
            and not exists (select 1 from email.attachments x where x.message_id = m.id and x.content is null) as whole,
          m.sent_at::text as at
        from email.messages m join email.accounts a on a.id = m.account_id
        where m.user_id = ${userId} ${at && id ? this.sql`and (m.sent_at, m.id) > (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      ) mails
      where whole = ${whole}
      order by sent_at, id
      limit ${limit}`;
  }

  /** The stored attachments of these messages (the user's own: the messages were read by user). */
  async attachments(messageIds: string[]): Promise<ExportedAttachment[]> {
    if (messageIds.length === 0) return [];
    return this.sql<ExportedAttachment[]>`
      select id, message_id, name, content_type, content from email.attachments
      where message_id = any(${messageIds}::uuid[]) and content is not null
      order by message_id, position`;
  }

  async templates(userId: string, after: string | undefined, limit: number): Promise<ExportedTemplate[]> {
    return this.sql<ExportedTemplate[]>`
      select id, name, subject, body, created_at, updated_at from email.templates
      where user_id = ${userId} ${after ? this.sql`and id > ${after}` : this.sql``}
      order by id limit ${limit}`;
  }
}
