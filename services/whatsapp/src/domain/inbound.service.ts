import { createEvent, type EventEnvelope, type Outbox, type Sql } from '@asistente/kit';
import type { ContactInfo, InboundMessage } from '../adapters/whatsapp-socket.js';
import type { AutoRepliesRepository } from './auto-replies.repository.js';
import { bestRule } from './keyword-match.js';
import type { ChatRow, MessagesRepository } from './messages.repository.js';
import { isLidJid, phoneOfJid } from './phone.js';

/** The same auto-reply is not sent to a chat twice within this window, so two bots cannot ping-pong. */
export const AUTO_REPLY_LOOP_WINDOW_MS = 10 * 60_000;

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
  ) {}

  async store(userId: string, batch: InboundMessage[], live: boolean): Promise<InboundResult> {
    const ordered = [...batch].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
    return this.sql.begin(async (tx) => {
      const events: EventEnvelope[] = [];
      const rules = live ? await this.autoReplies.active(tx, userId) : [];
      const chats = new Map<string, ChatRow>();
      let stored = 0;
      let answered = 0;
      for (const m of ordered) {
        const jids = [m.chatJid, ...(m.chatJidAlt ? [m.chatJidAlt] : [])];
        const name = m.fromMe || m.isGroup ? null : m.pushName;
        // A burst from one chat resolves it once per batch. Two JID forms may merge two chats: then nothing
        // resolved earlier in the batch is trusted any more.
        const cacheKey = `${jids.join('|')}|${name ?? ''}`;
        if (jids.length > 1) chats.clear();
        const chat = chats.get(cacheKey) ?? (await this.messages.ensureChat(tx, userId, jids, name, m.isGroup));
        if (jids.length === 1) chats.set(cacheKey, chat);
        const row = await this.messages.insertMessage(tx, userId, {
          chatId: chat.id,
          waId: m.waId,
          direction: m.fromMe ? 'outgoing' : 'incoming',
          origin: m.fromMe ? 'phone' : 'contact',
          fromJid: m.fromMe ? m.senderJid : m.senderJid || chat.jid,
          toJid: m.fromMe ? chat.jid : (m.senderJid === chat.jid ? 'me' : chat.jid),
          body: m.text,
          media: m.media,
          sentAt: m.timestamp,
          status: m.fromMe ? 'sent' : 'received',
        });
        if (!row) continue;
        stored++;
        await this.messages.touchChat(tx, chat.id, row, !m.fromMe && live);
        if (m.fromMe) {
          events.push(createEvent('whatsapp.message.sent', userId, { messageId: row.id, chatId: chat.jid, origin: 'phone' as const }, m.timestamp));
          continue;
        }
        let keywordAnswered = false;
        const rule = live && !m.isGroup && m.text ? bestRule(m.text, rules) : undefined;
        if (rule && !(await this.messages.autoReplyRecentlySent(tx, chat.id, rule.id, AUTO_REPLY_LOOP_WINDOW_MS))) {
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
          if (reply) {
            await this.messages.touchChat(tx, chat.id, reply, false);
            keywordAnswered = true;
            answered++;
          }
        }
        events.push(
          createEvent(
            'whatsapp.message.received',
            userId,
            { messageId: row.id, chatId: chat.jid, keywordAnswered, isGroup: m.isGroup, live },
            m.timestamp,
          ),
        );
      }
      await this.outbox.append(tx, events);
      return { stored, autoReplies: answered };
    });
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
