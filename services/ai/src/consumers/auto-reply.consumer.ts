import type { Logger, ServiceClient } from '@asistente/kit';
import { AppError } from '@asistente/kit';
import type { AssistantConfigService } from '../domain/assistant-config.service.js';
import type { AssistantRunService } from '../domain/assistant-run.service.js';
import type { ChatStateService } from '../domain/chat-state.service.js';
import { asksForHuman } from '../domain/prompt.js';
import { customerBurst } from './customer-burst.js';
import type { QuietTimer } from './quiet-timer.js';

/** Name of the durable JetStream consumer of automatic answers (shared by every ai replica). */
export const AUTO_REPLY_CONSUMER = 'ai-auto-reply';

/** How many recent messages of a chat are read to find the customer's burst. */
const RECENT_MESSAGES = 20;
/**
 * An event older than this is not answered: a new durable consumer starts from the beginning of the
 * stream, and a service back from an outage must not answer yesterday's messages.
 */
export const MAX_EVENT_AGE_MS = 5 * 60_000;
/** Message ids remembered so a redelivered event (JetStream after a lost ack) is not answered twice. */
const SEEN_LIMIT = 10_000;

interface IncomingEvent {
  type?: unknown;
  userId?: unknown;
  occurredAt?: unknown;
  data?: { messageId?: unknown; chatId?: unknown; live?: unknown; isGroup?: unknown; keywordAnswered?: unknown; origin?: unknown };
}

/** Chats never answered automatically: groups, broadcasts and status updates, newsletters. */
export function isPrivateChat(jid: string): boolean {
  return /@(s\.whatsapp\.net|lid|c\.us)$/.test(jid) && !jid.startsWith('status@');
}

/**
 * Automatic WhatsApp answers. A message that arrived live (not history), in a private chat, that no keyword
 * rule answered, starts or extends its chat's burst; once the chat has been quiet for a moment the burst
 * gets one answer, if the assistant is switched on and the chat is neither paused nor over a cap. The
 * owner writing from the phone pauses the chat for 30 minutes; a customer asking for a person gets the
 * hand-off phrase and the chat pauses until the owner resumes it.
 */
export class AutoReplyConsumer {
  /** The message ids of each waiting burst, in arrival order, by `userId/chatId`. */
  private readonly bursts = new Map<string, string[]>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly deps: {
      assistant: AssistantConfigService;
      chats: ChatStateService;
      runner: AssistantRunService;
      services: Pick<ServiceClient, 'request'>;
      timer: QuietTimer;
      log: Logger;
    },
  ) {}

  handle = async (events: unknown[]): Promise<void> => {
    for (const raw of events) {
      const event = raw as IncomingEvent;
      const chatId = event.data?.chatId;
      if (typeof event.userId !== 'string' || typeof chatId !== 'string') continue;
      const key = `${event.userId}/${chatId}`;
      if (event.type === 'whatsapp.message.sent' && event.data?.origin === 'phone') {
        this.deps.timer.cancel(key);
        this.bursts.delete(key);
        await this.deps.chats.ownerTookOver(event.userId, chatId);
      } else if (event.type === 'whatsapp.message.received' && this.answerable(event, chatId) && this.firstDelivery(event)) {
        const userId = event.userId;
        const ids = this.bursts.get(key) ?? [];
        ids.push(event.data!.messageId as string);
        this.bursts.set(key, ids);
        this.deps.timer.schedule(key, () => {
          this.bursts.delete(key);
          return this.answer(userId, chatId, ids);
        });
      }
    }
  };

  private answerable(event: IncomingEvent, chatId: string): boolean {
    const data = event.data!;
    const age = Date.now() - (typeof event.occurredAt === 'string' ? Date.parse(event.occurredAt) : Number.NaN);
    return (
      data.live === true &&
      data.isGroup !== true &&
      data.keywordAnswered !== true &&
      typeof data.messageId === 'string' &&
      isPrivateChat(chatId) &&
      age <= MAX_EVENT_AGE_MS
    );
  }

  /** False for a message this process already took (a redelivery); the oldest ids are forgotten first. */
  private firstDelivery(event: IncomingEvent): boolean {
    const id = `${event.userId as string}/${event.data!.messageId as string}`;
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value!);
    return true;
  }

  /** One answer to the chat's burst; failures are logged (never with the key) and the chat waits for the next message. */
  private async answer(userId: string, jid: string, ids: string[]): Promise<void> {
    try {
      const config = await this.deps.assistant.get(userId);
      if (!config.autoReply) return;
      const state = await this.deps.chats.state(userId, jid);
      if (state.paused) {
        this.deps.log.info({ userId, reason: state.reason }, 'automatic answer withheld');
        return;
      }
      const recent = await this.deps.services.request('whatsapp', userId, '/whatsapp/messages', { query: { jid, limit: RECENT_MESSAGES } });
      const lines = customerBurst(recent, ids);
      if (lines.length === 0) return;
      if (asksForHuman(lines)) return await this.handOff(userId, jid, config.handoffPhrase);
      const outcome = await this.deps.runner.answerChat(userId, config, { jid, customerLines: lines });
      if (outcome.handoff) return await this.handOff(userId, jid, config.handoffPhrase);
      if (outcome.answer === '') return;
      // The owner may have taken over (or paused the chat) while the model was answering.
      if (await this.deps.chats.silenced(userId, jid)) {
        this.deps.log.info({ userId }, 'automatic answer dropped: the chat was paused meanwhile');
        return;
      }
      await this.send(userId, jid, outcome.answer);
    } catch (error) {
      // AppError messages are the Spanish sentences of the API (no secrets); anything else by name only.
      const reason = error instanceof AppError ? error.code : error instanceof Error ? error.name : 'unknown';
      this.deps.log.warn({ userId, reason }, 'automatic answer failed');
    }
  }

  private async handOff(userId: string, jid: string, phrase: string): Promise<void> {
    await this.deps.chats.handedOff(userId, jid);
    await this.send(userId, jid, phrase);
  }

  private async send(userId: string, jid: string, text: string): Promise<void> {
    await this.deps.services.request('whatsapp', userId, '/whatsapp/messages', {
      method: 'POST',
      body: { jid, type: 'text', text, origin: 'ai' },
    });
  }
}
