import type { Sql, TransactionSql } from '@asistente/kit';
import type { MessageOrigin, MessageStatus } from '@asistente/contracts';
import type { MediaInfo } from './whatsapp-socket.js';
import type { CloudContent } from './cloud-content.js';
import { isLidJid, isPhoneJid, phoneOfJid } from './phone.js';

type Db = Sql | TransactionSql;

export interface ChatRow {
  id: string;
  jid: string;
  lid: string | null;
  name: string | null;
  phone: string | null;
  isGroup: boolean;
  lastAt: Date | null;
  lastText: string | null;
  lastDirection: 'incoming' | 'outgoing' | null;
  unread: number;
}

export interface MessageRow {
  id: string;
  chatId: string;
  waId: string;
  seq: string;
  direction: 'incoming' | 'outgoing';
  origin: MessageOrigin;
  fromJid: string;
  toJid: string;
  body: string;
  media: MediaInfo | null;
  sentAt: Date;
  status: MessageStatus;
  autoReplyId: string | null;
  attempts: number;
  /** The member who sent it from the app; null for the customer, the phone, a rule and the assistant. */
  sentBy: string | null;
  /** A Cloud API send's template or media; null for text. */
  cloudContent: CloudContent | null;
  /** Why a send failed (status `failed`), in the owner's words. */
  error: string | null;
}

/** A message with what names its chat outside WhatsApp (its handle and name). */
export interface MessageInChat extends MessageRow {
  chatJid: string;
  chatName: string | null;
  chatPhone: string | null;
  chatIsGroup: boolean;
}

export interface NewMessage {
  chatId: string;
  waId: string;
  direction: 'incoming' | 'outgoing';
  origin: MessageOrigin;
  fromJid: string;
  toJid: string;
  body: string;
  media: MediaInfo | null;
  sentAt: Date;
  status: MessageStatus;
  autoReplyId?: string | null;
  /** The id the caller gave a send (`clientMessageId`): unique per account. */
  clientId?: string | null;
  /** The member whose send this is: its event, written later by the socket's owner, names them. */
  sentBy?: string | null;
  cloudContent?: CloudContent | null;
}

const CHAT_COLUMNS = ['id', 'jid', 'lid', 'name', 'phone', 'is_group', 'last_at', 'last_text', 'last_direction', 'unread'];
const STATUS_RANK: Record<MessageStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 1, received: 0 };

/** `whatsapp.chats` and `whatsapp.messages`. */
export class MessagesRepository {
  constructor(
    private readonly sql: Sql,
    /** Told of each send marked failed (metrics). */
    private readonly sendFailed: () => void = () => {},
  ) {}

  /**
   * The one conversation of a person, whichever of their JIDs (phone or @lid) this message used: finds the
   * chat by either, upgrades a lid-only chat to its phone JID when the phone becomes known, and merges two
   * chats that turn out to be the same person.
   */
  async ensureChat(tx: Db, userId: string, jids: string[], name: string | null, isGroup: boolean): Promise<ChatRow> {
    const pn = jids.find(isPhoneJid) ?? null;
    const lid = jids.find(isLidJid) ?? null;
    const primary = isGroup ? jids[0]! : (pn ?? lid ?? jids[0]!);
    const candidates = [...new Set(jids)];
    const found = await tx<ChatRow[]>`
      select ${tx(CHAT_COLUMNS)} from whatsapp.chats
      where user_id = ${userId} and (jid in ${tx(candidates)} ${lid ? tx`or lid = ${lid}` : tx``})
      order by (jid = ${primary}) desc
      for update`;
    if (found.length === 0) {
      const [created] = await tx<ChatRow[]>`
        insert into whatsapp.chats (user_id, jid, lid, name, phone, is_group)
        values (${userId}, ${primary}, ${isGroup ? null : lid}, ${name}, ${phoneOfJid(primary)}, ${isGroup})
        on conflict (user_id, jid) do update set name = coalesce(whatsapp.chats.name, excluded.name)
        returning ${tx(CHAT_COLUMNS)}`;
      return created!;
    }
    const keep = found[0]!;
    for (const other of found.slice(1)) {
      await tx`update whatsapp.messages set chat_id = ${keep.id} where chat_id = ${other.id}`;
      await tx`delete from whatsapp.chats where id = ${other.id}`;
      await tx`
        update whatsapp.chats set unread = unread + ${other.unread}, name = coalesce(name, ${other.name}) where id = ${keep.id}`;
    }
    const needsUpgrade = !isGroup && ((pn && keep.jid !== pn) || (lid && keep.lid !== lid) || (name && !keep.name) || found.length > 1);
    if (!needsUpgrade) return keep;
    const [updated] = await tx<ChatRow[]>`
      update whatsapp.chats c set
        jid = ${pn ?? keep.jid},
        lid = coalesce(${lid}, c.lid),
        phone = coalesce(${pn ? phoneOfJid(pn) : null}, c.phone),
        name = coalesce(c.name, ${name}),
        (last_at, last_text, last_direction) = (
          select m.sent_at, coalesce(nullif(m.body, ''), m.media->>'kind', ''), m.direction
          from whatsapp.messages m where m.chat_id = c.id order by m.sent_at desc, m.seq desc limit 1)
      where c.id = ${keep.id}
      returning ${tx(CHAT_COLUMNS.map((col) => `c.${col}`))}`;
    return updated!;
  }

  /** Phone and group chats of a batch in one upsert (a known chat keeps its name); answers every row. */
  async upsertChats(tx: Db, userId: string, chats: { jid: string; name: string | null; isGroup: boolean }[]): Promise<ChatRow[]> {
    if (chats.length === 0) return [];
    const rows = chats.map((c) => ({ jid: c.jid, name: c.name, phone: phoneOfJid(c.jid), is_group: c.isGroup }));
    return tx<ChatRow[]>`
      insert into whatsapp.chats (user_id, jid, name, phone, is_group)
      select ${userId}, x.jid, x.name, x.phone, x.is_group
      from jsonb_to_recordset(${tx.json(rows as never)}) as x(jid text, name text, phone text, is_group boolean)
      on conflict (user_id, jid) do update set name = coalesce(whatsapp.chats.name, excluded.name)
      returning ${tx(CHAT_COLUMNS)}`;
  }

  /** The chat one of these JIDs (phone, @lid) belongs to now. */
  async findChatIn(tx: Db, userId: string, jids: string[]): Promise<ChatRow | undefined> {
    const [row] = await tx<ChatRow[]>`
      select ${tx(CHAT_COLUMNS)} from whatsapp.chats
      where user_id = ${userId} and (jid in ${tx(jids)} or lid in ${tx(jids)}) limit 1`;
    return row;
  }

  /** A batch in one statement, in the order given; ids the account already holds are skipped. */
  async insertMessages(tx: Db, userId: string, messages: NewMessage[]): Promise<MessageRow[]> {
    if (messages.length === 0) return [];
    const rows = messages.map((m, ord) => ({
      ord,
      chat_id: m.chatId,
      wa_id: m.waId,
      direction: m.direction,
      origin: m.origin,
      from_jid: m.fromJid,
      to_jid: m.toJid,
      body: m.body,
      media: m.media,
      sent_at: m.sentAt.toISOString(),
      status: m.status,
    }));
    const inserted = await tx<MessageRow[]>`
      insert into whatsapp.messages (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, media, sent_at, status)
      select ${userId}, x.chat_id, x.wa_id, x.direction, x.origin, x.from_jid, x.to_jid, x.body, x.media, x.sent_at, x.status
      from jsonb_to_recordset(${tx.json(rows as never)}) as x(
        ord int, chat_id uuid, wa_id text, direction text, origin text, from_jid text, to_jid text, body text,
        media jsonb, sent_at timestamptz, status text)
      order by x.ord
      on conflict (user_id, wa_id) do nothing
      returning *`;
    return inserted.sort((a, b) => Number(a.seq) - Number(b.seq));
  }

  /** Every touched chat's summary moved to its newest stored message, unread counted for live incoming ones. */
  async touchChats(tx: Db, rows: MessageRow[], live: boolean): Promise<void> {
    const summary = new Map<string, { chat_id: string; last_at: string; last_text: string; last_direction: string; unread: number; at: number }>();
    for (const m of rows) {
      const current = summary.get(m.chatId);
      const at = m.sentAt.getTime();
      const unread = (current?.unread ?? 0) + (live && m.direction === 'incoming' ? 1 : 0);
      if (!current || at >= current.at) {
        summary.set(m.chatId, { chat_id: m.chatId, last_at: m.sentAt.toISOString(), last_text: m.body || m.media?.kind || '', last_direction: m.direction, unread, at });
      } else current.unread = unread;
    }
    if (summary.size === 0) return;
    const list = [...summary.values()].map(({ at: _at, ...rest }) => rest);
    await tx`
      update whatsapp.chats c set
        last_text = case when c.last_at is null or x.last_at >= c.last_at then x.last_text else c.last_text end,
        last_direction = case when c.last_at is null or x.last_at >= c.last_at then x.last_direction else c.last_direction end,
        last_at = greatest(c.last_at, x.last_at),
        unread = c.unread + x.unread
      from jsonb_to_recordset(${tx.json(list as never)}) as x(chat_id uuid, last_at timestamptz, last_text text, last_direction text, unread int)
      where c.id = x.chat_id`;
  }

  /** Inserts unless the account already holds this WhatsApp message id; answers the new row or undefined. */
  async insertMessage(tx: Db, userId: string, m: NewMessage): Promise<MessageRow | undefined> {
    const [row] = await tx<MessageRow[]>`
      insert into whatsapp.messages
        (user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, media, sent_at, status, auto_reply_id, client_id, sent_by,
         cloud_content)
      values (${userId}, ${m.chatId}, ${m.waId}, ${m.direction}, ${m.origin}, ${m.fromJid}, ${m.toJid}, ${m.body},
              ${m.media ? tx.json(m.media as never) : null}, ${m.sentAt}, ${m.status}, ${m.autoReplyId ?? null}, ${m.clientId ?? null},
              ${m.sentBy ?? null}, ${m.cloudContent ? tx.json(m.cloudContent as never) : null})
      on conflict (user_id, wa_id) do nothing
      returning *`;
    return row;
  }

  /** Moves the chat's summary to this message if it is the newest; counts it unread when asked. */
  async touchChat(tx: Db, chatId: string, m: MessageRow, countUnread: boolean): Promise<void> {
    const preview = m.body || m.media?.kind || '';
    await tx`
      update whatsapp.chats set
        last_text = case when last_at is null or ${m.sentAt} >= last_at then ${preview} else last_text end,
        last_direction = case when last_at is null or ${m.sentAt} >= last_at then ${m.direction} else last_direction end,
        last_at = greatest(last_at, ${m.sentAt}),
        unread = unread + ${countUnread ? 1 : 0}
      where id = ${chatId}`;
  }

  async findChatByJid(userId: string, jid: string): Promise<ChatRow | undefined> {
    const [row] = await this.sql<ChatRow[]>`
      select ${this.sql(CHAT_COLUMNS)} from whatsapp.chats
      where user_id = ${userId} and (jid = ${jid} or lid = ${jid}) limit 1`;
    return row;
  }

  async findChatByJids(userId: string, jids: string[]): Promise<ChatRow | undefined> {
    const [row] = await this.sql<ChatRow[]>`
      select ${this.sql(CHAT_COLUMNS)} from whatsapp.chats
      where user_id = ${userId} and jid in ${this.sql(jids)} order by last_at desc nulls last limit 1`;
    return row;
  }

  async markRead(chatId: string): Promise<void> {
    await this.sql`update whatsapp.chats set unread = 0 where id = ${chatId} and unread > 0`;
  }

  /**
   * The inbox page and its total in one round trip, from the chats' own summary columns (no message is read):
   * the newest-first page walks chats_user_recent, a search goes through the trigram index on the folded
   * search column (name, phone, JID, phone digits) and counts its matches. The lateral join keeps the total
   * when the page is empty.
   */
  async conversations(userId: string, search: string | undefined, limit: number, offset: number) {
    const term = search?.trim() ?? '';
    const digits = term.replace(/[\s+\-().]/g, '');
    const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A term that is a phone number written with spaces or dashes also matches the digits alone.
    const byDigits = /^\d{3,}$/.test(digits) && digits !== term ? this.sql`or search like ${like(digits)}` : this.sql``;
    // The term is folded once (a sub-select): in the generic plan of a prepared statement whatsapp.fold(param)
    // would be run again for every row the filter looks at (EXPLAIN: 15 ms against 1.2 ms with 2,000 chats).
    const filter = term ? this.sql`and (search like (select whatsapp.fold(${like(term)})) ${byDigits})` : this.sql``;
    // Without a search the total is the account's counter (kept by triggers), not a count of its chats.
    const counted = term
      ? this.sql`select count(*)::int as total from whatsapp.chats where user_id = ${userId} and last_at is not null ${filter}`
      : this.sql`select coalesce((select chats from whatsapp.inbox_totals where user_id = ${userId}), 0) as total`;
    const found = await this.sql<(ChatRow & { total: number })[]>`
      select t.total, ${this.sql(CHAT_COLUMNS.map((col) => `p.${col}`))}
      from (${counted}) t
      left join lateral (
        select ${this.sql(CHAT_COLUMNS)} from whatsapp.chats
        where user_id = ${userId} and last_at is not null ${filter}
        order by last_at desc, id limit ${limit} offset ${offset}
      ) p on true`;
    const total = found[0]?.total ?? 0;
    const rows: ChatRow[] = found.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row);
    return { rows, total };
  }

  async messages(userId: string, chatId: string | null, limit: number, offset: number) {
    const where = chatId ? this.sql`m.chat_id = ${chatId}` : this.sql`m.user_id = ${userId}`;
    const [rows, [count]] = await Promise.all([
      this.sql<(MessageRow & { chatJid: string })[]>`
        select m.*, c.jid as chat_jid from whatsapp.messages m join whatsapp.chats c on c.id = m.chat_id
        where ${where} order by m.sent_at desc, m.seq desc limit ${limit} offset ${offset}`,
      this.sql<{ total: number }[]>`select count(*)::int as total from whatsapp.messages m where ${where}`,
    ]);
    return { rows, total: count?.total ?? 0 };
  }

  async findMessage(userId: string, id: string): Promise<(MessageRow & { chatJid: string }) | undefined> {
    const [row] = await this.sql<(MessageRow & { chatJid: string })[]>`
      select m.*, c.jid as chat_jid from whatsapp.messages m join whatsapp.chats c on c.id = m.chat_id
      where m.user_id = ${userId} and m.id = ${id}`;
    return row;
  }

  /** The send a caller already asked under this id of its own, if any. */
  async findByClientId(tx: Db, userId: string, clientId: string): Promise<(MessageRow & { chatJid: string }) | undefined> {
    const [row] = await tx<(MessageRow & { chatJid: string })[]>`
      select m.*, c.jid as chat_jid from whatsapp.messages m join whatsapp.chats c on c.id = m.chat_id
      where m.user_id = ${userId} and m.client_id = ${clientId}`;
    return row;
  }

  /**
   * These of the user's messages with what names their chat, in storage order; ids of other users or unknown
   * ones are not there.
   */
  async findMessages(userId: string, ids: string[]): Promise<MessageInChat[]> {
    return this.sql<MessageInChat[]>`
      select m.*, c.jid as chat_jid, c.name as chat_name, c.phone as chat_phone, c.is_group as chat_is_group
      from whatsapp.messages m join whatsapp.chats c on c.id = m.chat_id
      where m.user_id = ${userId} and m.id in ${this.sql(ids)} order by m.seq`;
  }

  /** The next message to deliver: the oldest pending one (delivery is strictly in the order they were stored). */
  async nextPending(userId: string): Promise<(MessageRow & { chatJid: string }) | undefined> {
    const [row] = await this.sql<(MessageRow & { chatJid: string })[]>`
      select m.*, c.jid as chat_jid from whatsapp.messages m join whatsapp.chats c on c.id = m.chat_id
      where m.user_id = ${userId} and m.status = 'pending' order by m.seq limit 1`;
    return row;
  }

  async pendingCount(userId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      select count(*)::int as n from whatsapp.messages where user_id = ${userId} and status = 'pending'`;
    return row?.n ?? 0;
  }

  /**
   * A send WhatsApp accepted: pending → sent (a receipt may have moved it further already), and whether this
   * call is the one that announces it (its event is written once).
   */
  async markSent(tx: Db, id: string): Promise<boolean> {
    const result = await tx`
      update whatsapp.messages set status = case when status = 'pending' then 'sent' else status end, announced = true
      where id = ${id} and not announced and status <> 'failed'`;
    return result.count === 1;
  }

  /** Every send of the workspace still waiting fails with this reason (its provider went away); answers how many. */
  async failPending(tx: Db, userId: string, error: string): Promise<number> {
    const result = await tx`update whatsapp.messages set status = 'failed', error = ${error} where user_id = ${userId} and status = 'pending'`;
    for (let i = 0; i < result.count; i++) this.sendFailed();
    return result.count;
  }

  async markFailed(id: string, error: string): Promise<void> {
    const result = await this.sql`update whatsapp.messages set status = 'failed', error = ${error} where id = ${id} and status = 'pending'`;
    if (result.count > 0) this.sendFailed();
  }

  /** Why a send failed, as it was written with it. */
  async errorOf(id: string): Promise<string | null> {
    const [row] = await this.sql<{ error: string | null }[]>`select error from whatsapp.messages where id = ${id}`;
    return row?.error ?? null;
  }

  async countAttempt(id: string): Promise<number> {
    const [row] = await this.sql<{ attempts: number }[]>`
      update whatsapp.messages set attempts = attempts + 1 where id = ${id} returning attempts`;
    return row?.attempts ?? 0;
  }

  /** Receipts only move a status forward (a late 'delivered' never undoes 'read'). */
  async advanceStatus(userId: string, waId: string, status: MessageStatus): Promise<void> {
    await this.sql`
      update whatsapp.messages set status = ${status}
      where user_id = ${userId} and wa_id = ${waId} and direction = 'outgoing'
        and case when ${status} = 'failed' then status = 'pending'
                 else (case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 9 end)
                      < ${STATUS_RANK[status]} end`;
  }

  /** Whether this auto-reply already went to this chat within the window (the ping-pong guard). */
  async autoReplyRecentlySent(tx: Db, chatId: string, autoReplyId: string, windowMs: number): Promise<boolean> {
    const [row] = await tx`
      select 1 from whatsapp.messages
      where chat_id = ${chatId} and auto_reply_id = ${autoReplyId}
        and sent_at > now() - ${windowMs} * interval '1 millisecond' limit 1`;
    return row !== undefined;
  }

  async stats(userId: string) {
    const [row] = await this.sql<{ sent: number; received: number; contacts: number; autoReplies: number }[]>`
      select
        count(*) filter (where direction = 'outgoing' and status in ('sent', 'delivered', 'read'))::int as sent,
        count(*) filter (where direction = 'incoming')::int as received,
        count(distinct chat_id) filter (where sent_at > now() - interval '30 days')::int as contacts,
        count(*) filter (where origin in ('keyword', 'ai') and status in ('sent', 'delivered', 'read'))::int as auto_replies
      from whatsapp.messages where user_id = ${userId}`;
    return row ?? { sent: 0, received: 0, contacts: 0, autoReplies: 0 };
  }

  async upsertContacts(userId: string, contacts: { jid: string; name: string | null; phone: string | null }[]): Promise<void> {
    if (!contacts.length) return;
    const rows = contacts.map((c) => ({ userId, jid: c.jid, name: c.name, phone: c.phone }));
    await this.sql`
      insert into whatsapp.contacts ${this.sql(rows, 'userId', 'jid', 'name', 'phone')}
      on conflict (user_id, jid) do update set
        name = coalesce(excluded.name, whatsapp.contacts.name), phone = coalesce(excluded.phone, whatsapp.contacts.phone)`;
    await this.sql`
      update whatsapp.chats c set name = w.name from whatsapp.contacts w
      where c.user_id = ${userId} and w.user_id = ${userId} and w.jid in ${this.sql(contacts.map((x) => x.jid))}
        and w.name is not null and (c.jid = w.jid or c.lid = w.jid) and c.name is distinct from w.name`;
  }

  /** People to sync: WhatsApp contacts and one-to-one chats with a phone, one entry per phone. */
  async syncablePeople(userId: string): Promise<{ phone: string; name: string | null }[]> {
    return this.sql<{ phone: string; name: string | null }[]>`
      select distinct on (phone) phone, name from (
        select phone, name from whatsapp.contacts where user_id = ${userId} and phone is not null
        union all
        select phone, name from whatsapp.chats where user_id = ${userId} and phone is not null and not is_group
      ) people order by phone, name nulls last`;
  }
}
