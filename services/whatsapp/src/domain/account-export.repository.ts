import type { Sql } from '@asistente/kit';
import type { MessageRow } from './messages.repository.js';

export interface ExportedChat {
  id: string;
  jid: string;
  name: string | null;
  phone: string | null;
  isGroup: boolean;
  lastAt: Date | null;
  unread: number;
}

/** A message and where the next page starts after it: its time as PostgreSQL writes it (to the microsecond). */
export type ExportedMessage = Omit<MessageRow, 'attempts' | 'autoReplyId' | 'waId'> & { at: string; error: string | null };

export interface ExportedAutoReply {
  id: string;
  keyword: string;
  response: string;
  active: boolean;
  createdAt: Date;
}

/** What "Descargar mis datos" reads of WhatsApp: chats, their messages in keyset pages, automatic answers. Never the auth state. */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's chat after `afterId` (by id), or the first one. */
  async nextChat(userId: string, afterId: string | undefined): Promise<ExportedChat | undefined> {
    const [chat] = await this.sql<ExportedChat[]>`
      select id, jid, name, phone, is_group, last_at, unread from whatsapp.chats
      where user_id = ${userId} ${afterId ? this.sql`and id > ${afterId}` : this.sql``}
      order by id limit 1`;
    return chat;
  }

  async chat(userId: string, id: string): Promise<ExportedChat | undefined> {
    const [chat] = await this.sql<ExportedChat[]>`
      select id, jid, name, phone, is_group, last_at, unread from whatsapp.chats where user_id = ${userId} and id = ${id}`;
    return chat;
  }

  /** A chat's messages oldest first, after (`at`, `seq`); the chat's (sent_at, seq) index read backwards. */
  async messages(userId: string, chatId: string, after: { at: string; seq: string } | undefined, limit: number): Promise<ExportedMessage[]> {
    return this.sql<ExportedMessage[]>`
      select id, chat_id, seq, direction, origin, from_jid, to_jid, body, media, sent_at, status, error, sent_by, sent_at::text as at
      from whatsapp.messages
      where user_id = ${userId} and chat_id = ${chatId}
        ${after ? this.sql`and (sent_at, seq) > (${after.at}::timestamptz, ${after.seq}::bigint)` : this.sql``}
      order by sent_at, seq
      limit ${limit}`;
  }

  async autoReplies(userId: string, after: string | undefined, limit: number): Promise<ExportedAutoReply[]> {
    return this.sql<ExportedAutoReply[]>`
      select id, keyword, response, active, created_at from whatsapp.auto_replies
      where user_id = ${userId} ${after ? this.sql`and id > ${after}` : this.sql``}
      order by id limit ${limit}`;
  }
}
