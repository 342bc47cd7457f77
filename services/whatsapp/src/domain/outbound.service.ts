import { EVENT_TEXT_MAX, type SendMessageBody, type WhatsAppMessage } from '@asistente/contracts';
import { badRequest, conflict, createEvent, currentMemberId, withDeadline, type EventEnvelope, type Logger, type Outbox, type Sql } from '@asistente/kit';
import type { MediaInfo } from './whatsapp-socket.js';
import type { CloudContent } from './cloud-content.js';
import type { AccountsRepository } from './accounts.repository.js';
import { toMessage } from './message-view.js';
import type { MessageRow, MessagesRepository } from './messages.repository.js';
import { jidsOfHandle } from './handle.js';
import { jidCandidates, phoneOfJid, toE164 } from './phone.js';

/** A send that keeps failing while the socket is open is given up after this many tries (then 'failed'). */
const MAX_ATTEMPTS = 3;
export const NOT_CONNECTED = 'WhatsApp no está conectado';

/**
 * Automatic answers (keyword and AI) leave at least `automatedGapMs` between them on one account, plus up to
 * half of it again at random: WhatsApp bans numbers that send bursts like a bot (Baileys #1983, #2075).
 * What the owner writes in the app is not held back, only kept in order behind an answer that waits.
 */
export interface Pacing {
  automatedGapMs: number;
}

/** WhatsApp's own answer to whether a number (its digits) has an account, and under which JID. */
type Lookup = (digits: string) => Promise<string | null>;

const isAutomated = (origin: string) => origin === 'keyword' || origin === 'ai';

/** One recipient, named one of three ways (exactly one is given). */
export interface Recipient {
  jid?: string;
  phoneNumber?: string;
  handle?: string;
}

export interface QueuedSend {
  body: string;
  origin: 'app' | 'ai';
  clientId: string | null;
  media?: MediaInfo | null;
  cloudContent?: CloudContent | null;
}

/** A stored send on its way out, with its chat's JID. */
export type PendingSend = MessageRow & { chatJid: string };

/** Exactly one recipient, or a 400 in Spanish. */
export function checkOneRecipient(body: Recipient): void {
  const recipients = [body.jid, body.phoneNumber, body.handle].filter(Boolean).length;
  if (recipients === 0) throw badRequest('Indica el chat o el número de teléfono', 'VALIDATION_ERROR');
  if (recipients > 1) throw badRequest('Indica un solo destinatario', 'VALIDATION_ERROR');
}

/**
 * The longest a database step of the drain may take: its statement timeout (5 s by default), a wait for a
 * pooled connection and a reconnect, with room to spare. A step that has no answer by then is waiting on a
 * connection that will never answer (seen once in many runs after connections were cut under load: every
 * send of the account then waited, with no error, until the process restarted). The drain gives up so the
 * next tick starts a new one; the step left behind can only write a send as sent once (`markSent`).
 */
export const DELIVERY_STEP_DEADLINE_MS = 30_000;

/** Waits without keeping the process alive: a shutdown does not wait for a paced answer. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Reliable sending: a message is stored first (pending, with the WhatsApp id it will travel with) and the
 * socket owner delivers pending messages strictly in the order they were stored. A send accepted while the
 * socket is down waits for the reconnect; the fixed id means a retry is never a second message.
 */
export class OutboundService {
  /** When each account may send its next automatic answer. */
  private readonly nextAutomatedAt = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    private readonly messages: MessagesRepository,
    private readonly accounts: AccountsRepository,
    private readonly outbox: Outbox,
    private readonly newMessageId: () => string,
    private readonly log: Logger,
    private readonly pacing: Pacing,
    private readonly stepDeadlineMs = DELIVERY_STEP_DEADLINE_MS,
  ) {}

  async enqueue(
    userId: string,
    body: SendMessageBody,
    lookup: Lookup | undefined,
  ): Promise<WhatsAppMessage> {
    const text = (body.text ?? body.message ?? '').trim();
    if (!text) throw badRequest('Escribe un mensaje', 'VALIDATION_ERROR');
    checkOneRecipient(body);
    const account = await this.accounts.find(userId);
    if (!account?.linked) throw conflict(NOT_CONNECTED, 'WHATSAPP_NOT_CONNECTED');
    const jid = await this.recipient(userId, body, account.region, lookup);
    return this.store(userId, jid, { body: text, origin: body.origin ?? 'app', clientId: body.clientMessageId ?? null });
  }

  /**
   * Stores a send as pending in its chat, for whoever delivers the account's queue (the socket's owner, or the
   * Cloud API's delivery): the same client id again answers the message already stored.
   */
  async store(userId: string, jid: string, send: QueuedSend): Promise<WhatsAppMessage> {
    // Kept with the message: its event is written by the drain, outside this request. The assistant's answers
    // come under the workspace's own id (its founder's), yet no member wrote them.
    const sentBy = isAutomated(send.origin) ? null : (currentMemberId() ?? null);
    const row = await this.sql.begin(async (tx) => {
      // ensureChat locks the chat's row: two sends under one client id (two replicas retrying) queue one message.
      const chat = await this.messages.ensureChat(tx, userId, [jid], null, jid.endsWith('@g.us'));
      const earlier = send.clientId ? await this.messages.findByClientId(tx, userId, send.clientId) : undefined;
      if (earlier) return earlier;
      const inserted = await this.messages.insertMessage(tx, userId, {
        chatId: chat.id,
        waId: this.newMessageId(),
        direction: 'outgoing',
        origin: send.origin,
        fromJid: 'me',
        toJid: chat.jid,
        body: send.body,
        media: send.media ?? null,
        sentAt: new Date(),
        status: 'pending',
        clientId: send.clientId,
        sentBy,
        cloudContent: send.cloudContent ?? null,
      });
      await this.messages.touchChat(tx, chat.id, inserted!, false);
      return { ...inserted!, chatJid: chat.jid };
    });
    return toMessage(row);
  }

  /** The JID the one recipient given names: a JID as it is, a typed number or a handle through its chat. */
  async recipient(userId: string, body: Recipient, region: string, lookup: Lookup | undefined): Promise<string> {
    if (body.jid) return this.checkJid(body.jid);
    if (body.phoneNumber) {
      const e164 = toE164(body.phoneNumber, region);
      if (!e164) throw badRequest('Número de teléfono inválido', 'VALIDATION_ERROR');
      return this.reach(userId, jidCandidates(e164), lookup);
    }
    // A handle is already international: no region to read it in, and one this service gave out is always taken.
    const jids = jidsOfHandle(body.handle!);
    if (!jids) throw badRequest('Destinatario inválido', 'VALIDATION_ERROR');
    return this.reach(userId, jids, lookup);
  }

  private checkJid(jid: string): string {
    const trimmed = jid.trim();
    if (!/^[\w.:+-]+@(s\.whatsapp\.net|lid|g\.us)$/.test(trimmed)) throw badRequest('Destinatario inválido', 'VALIDATION_ERROR');
    return trimmed;
  }

  /**
   * The chat one of these JIDs (the likeliest first) names: an existing chat under any of them first, then
   * WhatsApp's own lookup of a number, else the likeliest.
   */
  private async reach(userId: string, jids: string[], lookup: Lookup | undefined): Promise<string> {
    const existing = await this.messages.findChatByJids(userId, jids);
    if (existing) return existing.jid;
    if (lookup) {
      for (const candidate of jids) {
        const digits = phoneOfJid(candidate)?.slice(1);
        const found = digits ? await lookup(digits).catch(() => null) : null;
        if (found) return found;
      }
    }
    return jids[0]!;
  }

  /** Delivers this account's pending messages in order while the socket (or the Cloud API) accepts them. */
  async drain(userId: string, send: (next: PendingSend) => Promise<void>, isOpen: () => boolean): Promise<void> {
    // The send has its own deadline (the adapter's); each database step gets this one, named in the failure.
    const bounded = <T>(step: string, work: Promise<T>) => withDeadline(work, this.stepDeadlineMs, `whatsapp delivery stalled ${step}`);
    for (;;) {
      if (!isOpen()) return;
      const next = await bounded('reading the next send', this.messages.nextPending(userId));
      if (!next) return;
      const automated = isAutomated(next.origin);
      if (automated) {
        for (let wait = this.waitBeforeAnswer(userId); wait > 0; wait = this.waitBeforeAnswer(userId)) await pause(wait);
        if (!isOpen()) return;
      }
      const failure = await send(next).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      // Counted from when the answer left (or was refused), so two answers are never closer than the gap.
      if (automated) this.nextAutomatedAt.set(userId, Date.now() + this.pacing.automatedGapMs * (1 + Math.random() / 2));
      if (failure) {
        if (!isOpen()) return; // the socket went away: the message waits for the reconnect
        const attempts = await bounded('counting a failed send', this.messages.countAttempt(next.id));
        this.log.warn({ err: failure.error, attempts }, 'whatsapp send failed');
        if (attempts < MAX_ATTEMPTS) return; // the next drain (tick or reconnect) tries again, still first in line
        await bounded('giving up a send', this.messages.markFailed(next.id, 'WhatsApp no aceptó el mensaje'));
        continue;
      }
      await bounded(
        'writing a send as sent',
        this.sql.begin(async (tx) => {
          if (!(await this.messages.markSent(tx, next.id))) return;
          const origin = next.origin === 'contact' ? 'app' : next.origin;
          // Written outside the sender's request, maybe on another replica: the message names who sent it, or no one.
          const by = (event: EventEnvelope): EventEnvelope => (next.sentBy ? { ...event, actorId: next.sentBy } : event);
          const text = next.body.slice(0, EVENT_TEXT_MAX);
          const events = [by(createEvent('whatsapp.message.sent', userId, { messageId: next.id, chatId: next.chatJid, origin, text }))];
          if (origin === 'keyword' || origin === 'ai') {
            events.push(by(createEvent('whatsapp.autoreply.sent', userId, { messageId: next.id, chatId: next.chatJid, kind: origin })));
          }
          await this.outbox.append(tx, events);
        }),
      );
    }
  }

  private waitBeforeAnswer(userId: string): number {
    return (this.nextAutomatedAt.get(userId) ?? 0) - Date.now();
  }
}

