import { EVENT_TEXT_MAX } from '@asistente/contracts';
import { createEvent, type EventEnvelope, type Outbox, type Sql, type TransactionSql } from '@asistente/kit';
import type { ContactInfo, InboundMessage } from './whatsapp-socket.js';
import type { AutoRepliesRepository, AutoReplyRow } from './auto-replies.repository.js';
import { bestRule } from './keyword-match.js';
import type { ChatRow, MessagesRepository } from './messages.repository.js';
import { isLidJid, phoneOfJid } from './phone.js';

/** The same auto-reply is not sent to a chat twice within this window, so two bots cannot ping-pong. */
export const AUTO_REPLY_LOOP_WINDOW_MS = 10 * 60_000;
/** Stored messages between two vacuums of the chats table (embedded only). */
const VACUUM_EVERY = 5_000;

export interface InboundResult {
  stored: number;
  autoReplies: number;
}

/**
 * Stores what the socket delivers: each batch in one transaction, oldest first, unique per account +
 * WhatsApp id (a replay or duplicate changes nothing), with its outbox events and at most one keyword answer
 * per live incoming message (queued as a pending outgoing message for the socket owner to deliver).
 */
export class InboundService {
  constructor(
    private readonly sql: Sql,
    private readonly messages: MessagesRepository,
    private readonly autoReplies: AutoRepliesRepository,
    private readonly outbox: Outbox,
    private readonly newMessageId: () => string,
    /**
     * Embedded PGlite has no autovacuum: every stored message rewrites its chat's summary row, and without a
     * vacuum the inbox would walk the dead versions. Postgres's autovacuum does this by itself.
     */
    private readonly vacuumChats: boolean = false,
  ) {}

  private chatUpdates = 0;

  async store(userId: string, batch: InboundMessage[], live: boolean): Promise<InboundResult> {
    const result = await this.storeBatch(userId, batch, live);
    this.chatUpdates += result.stored;
    if (this.vacuumChats && this.chatUpdates >= VACUUM_EVERY) {
      this.chatUpdates = 0;
      await this.sql`vacuum (analyze) whatsapp.chats`;
    }
    return result;
  }

  private async storeBatch(userId: string, batch: InboundMessage[], live: boolean): Promise<InboundResult> {
    const ordered = [...batch].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    return this.sql.begin(async (tx) => {
      const chatOf = await this.resolveChats(tx, userId, ordered);
      // The whole batch in one statement, in order; a replayed or duplicate id is skipped by the unique key.
      const inserted = await this.messages.insertMessages(
        tx,
        userId,
        ordered.map((m) => {
          const chat = chatOf.get(m)!;
          return {
            chatId: chat.id,
            waId: m.waId,
            direction: m.fromMe ? ('outgoing' as const) : ('incoming' as const),
            origin: m.fromMe ? ('phone' as const) : ('contact' as const),
            fromJid: m.fromMe ? m.senderJid : m.senderJid || chat.jid,
            toJid: m.fromMe ? chat.jid : m.senderJid === chat.jid ? 'me' : chat.jid,
            body: m.text,
            media: m.media,
            sentAt: m.timestamp,
            status: m.fromMe ? ('sent' as const) : ('received' as const),
          };
        }),
      );
      await this.messages.touchChats(tx, inserted, live);

      const byWaId = new Map(ordered.map((m) => [m.waId, m]));
      const rules = live ? await this.autoReplies.active(tx, userId) : [];
      const events: EventEnvelope[] = [];
      let answered = 0;
      for (const row of inserted) {
        const m = byWaId.get(row.waId)!;
        const chat = chatOf.get(m)!;
        if (m.fromMe) {
          events.push(
            createEvent('whatsapp.message.sent', userId, { messageId: row.id, chatId: chat.jid, origin: 'phone' as const, text: m.text.slice(0, EVENT_TEXT_MAX) }, m.timestamp),
          );
          continue;
        }
        const keywordAnswered = rules.length > 0 && !m.isGroup && m.text !== '' && (await this.answer(tx, userId, chat, m, rules));
        if (keywordAnswered) answered++;
        events.push(
          createEvent(
            'whatsapp.message.received',
            userId,
            {
              messageId: row.id,
              chatId: chat.jid,
              keywordAnswered,
              isGroup: m.isGroup,
              live,
              // For the webhooks' receivers: what was said and by whom (a group's member, or the chat's person).
              text: m.text.slice(0, EVENT_TEXT_MAX),
              from: (m.senderJid || chat.jid).slice(0, 200),
              senderName: m.pushName?.slice(0, 200) ?? null,
            },
            m.timestamp,
          ),
        );
      }
      await this.outbox.append(tx, events);
      return { stored: inserted.length, autoReplies: answered };
    });
  }

  /**
   * Each message's conversation. Phone and group JIDs (nearly all traffic) are upserted in one statement;
   * @lid forms go one by one through ensureChat, which may merge two chats of one person, and are looked up
   * again at the end so each points at the chat that survived.
   */
  private async resolveChats(tx: TransactionSql, userId: string, ordered: InboundMessage[]): Promise<Map<InboundMessage, ChatRow>> {
    const chatOf = new Map<InboundMessage, ChatRow>();
    const jidsOf = (m: InboundMessage) => [m.chatJid, ...(m.chatJidAlt ? [m.chatJidAlt] : [])];
    const nameOf = (m: InboundMessage) => (m.fromMe || m.isGroup ? null : m.pushName);
    const simple = ordered.filter((m) => !m.chatJidAlt && !isLidJid(m.chatJid));
    const complex = ordered.filter((m) => m.chatJidAlt || isLidJid(m.chatJid));
    const wanted = new Map<string, { jid: string; name: string | null; isGroup: boolean }>();
    for (const m of simple) {
      const seen = wanted.get(m.chatJid);
      wanted.set(m.chatJid, { jid: m.chatJid, name: seen?.name ?? nameOf(m), isGroup: m.isGroup });
    }
    const byJid = new Map((await this.messages.upsertChats(tx, userId, [...wanted.values()])).map((c) => [c.jid, c]));
    for (const m of simple) chatOf.set(m, byJid.get(m.chatJid)!);
    for (const m of complex) await this.messages.ensureChat(tx, userId, jidsOf(m), nameOf(m), m.isGroup);
    for (const m of complex) chatOf.set(m, (await this.messages.findChatIn(tx, userId, jidsOf(m)))!);
    return chatOf;
  }

  /** The keyword answer to one live incoming message, queued as a pending outgoing message; whether it was. */
  private async answer(tx: TransactionSql, userId: string, chat: ChatRow, m: InboundMessage, rules: AutoReplyRow[]): Promise<boolean> {
    const rule = bestRule(m.text, rules);
    if (!rule || (await this.messages.autoReplyRecentlySent(tx, chat.id, rule.id, AUTO_REPLY_LOOP_WINDOW_MS))) return false;
    const reply = await this.messages.insertMessage(tx, userId, {
      chatId: chat.id,
      waId: this.newMessageId(),
      direction: 'outgoing',
      origin: 'keyword',
      fromJid: 'me',
      toJid: chat.jid,
      body: rule.response,
      media: null,
      sentAt: new Date(Math.max(Date.now(), m.timestamp.getTime() + 1)),
      status: 'pending',
      autoReplyId: rule.id,
    });
    if (!reply) return false;
    await this.messages.touchChat(tx, chat.id, reply, false);
    return true;
  }

  /** A learned @lid ↔ phone pair: the chats of both forms become one. */
  async mapLids(userId: string, mappings: { lid: string; pn: string }[]): Promise<void> {
    for (const { lid, pn } of mappings) {
      if (!isLidJid(lid) || !phoneOfJid(pn)) continue;
      const existing = await this.messages.findChatByJids(userId, [lid, pn]);
      if (!existing) continue;
      await this.sql.begin((tx) => this.messages.ensureChat(tx, userId, [pn, lid], null, false));
    }
  }

  async contacts(userId: string, contacts: ContactInfo[]): Promise<void> {
    // One row per person: an @lid entry that names its phone merges into the phone's row.
    const byJid = new Map<string, { jid: string; name: string | null; phone: string | null }>();
    for (const c of contacts) {
      if (c.jid.endsWith('@g.us') || c.jid.endsWith('@broadcast')) continue;
      const jid = c.phoneJid ?? c.jid;
      const previous = byJid.get(jid);
      byJid.set(jid, { jid, name: c.name ?? previous?.name ?? null, phone: phoneOfJid(jid) });
    }
    await this.messages.upsertContacts(userId, [...byJid.values()]);
    const pairs = contacts.flatMap((c) => (c.lid && c.phoneJid ? [{ lid: c.lid, pn: c.phoneJid }] : []));
    if (pairs.length) await this.mapLids(userId, pairs);
  }
}
