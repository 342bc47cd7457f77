import { jsonArrayPart, type AccountExportPart, type Sql } from '@asistente/kit';

interface ConversationExport {
  id: string;
  channel: string;
  handle: string;
  name: string | null;
  status: string;
  assigneeId: string | null;
  createdAt: Date;
}

interface EntryExport {
  id: string;
  conversationId: string;
  kind: string;
  direction: string | null;
  author: string;
  authorName: string | null;
  body: string;
  at: Date;
  seq: string;
}

interface VisitorExport {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  contactId: string | null;
  createdAt: Date;
}

/**
 * The inbox's share of the owner's "Descargar mis datos": its conversations and every message and note in
 * them, and the website chat's visitors with the details they left.
 */
export function inboxExportParts(sql: Sql): AccountExportPart[] {
  return [
    jsonArrayPart(
      'conversaciones.json',
      {
        rows: (userId, after, limit) => sql<ConversationExport[]>`
          select id, channel, handle, name, status, assignee_id, created_at from inbox.conversations
          where user_id = ${userId} and id > ${after ?? '00000000-0000-0000-0000-000000000000'} order by id limit ${limit}`,
        key: (c) => c.id,
      },
      (c) => ({ ...c, createdAt: c.createdAt.toISOString() }),
    ),
    jsonArrayPart(
      'mensajes-y-notas.json',
      {
        rows: (userId, after, limit) => sql<EntryExport[]>`
          select id, conversation_id, kind, direction, author, author_name, body, at, seq from inbox.entries
          where user_id = ${userId} and seq > ${after ?? '0'}::bigint order by seq limit ${limit}`,
        key: (e) => e.seq,
      },
      ({ seq: _seq, body, at, ...e }) => ({ ...e, text: body, at: at.toISOString() }),
      5000,
    ),
    jsonArrayPart(
      'visitantes-chat-web.json',
      {
        rows: (userId, after, limit) => sql<VisitorExport[]>`
          select id, name, email, phone, contact_id, created_at from inbox.widget_visitors
          where user_id = ${userId} and id > ${after ?? '00000000-0000-0000-0000-000000000000'} order by id limit ${limit}`,
        key: (v) => v.id,
      },
      (v) => ({ ...v, createdAt: v.createdAt.toISOString() }),
    ),
  ];
}
