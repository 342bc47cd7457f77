import type { ChatStateService } from '../domain/chat-state.service.js';
import type { ChatBurstsRepository } from '../domain/chat-bursts.repository.js';
import type { BurstClock } from './burst-clock.js';

/** Name of the durable JetStream consumer of automatic answers (shared by every ai replica). */
export const AUTO_REPLY_CONSUMER = 'ai-auto-reply';

/**
 * An event older than this is not answered: a new durable consumer starts from the beginning of the
 * stream, and a service back from an outage must not answer yesterday's messages.
 */
export const MAX_EVENT_AGE_MS = 5 * 60_000;

/** The ids of `whatsapp.messages` (what the WhatsApp service announces and answers by id). */
const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
 * The event side of automatic WhatsApp answers. A message that arrived live (not history), in a private chat,
 * that no keyword rule answered, joins its chat's burst in PostgreSQL (once, however often its event is
 * delivered and to whichever replica); the burst is answered once the chat has been quiet for `quietMs`
 * (BurstScheduler, BurstAnswerer). The owner writing from the phone drops the waiting burst and pauses the
 * chat for 30 minutes.
 */
export class AutoReplyConsumer {
  constructor(
    private readonly deps: {
      bursts: ChatBurstsRepository;
      chats: ChatStateService;
      clock: BurstClock;
      quietMs: number;
    },
  ) {}

  handle = async (events: unknown[]): Promise<void> => {
    for (const raw of events) {
      const event = raw as IncomingEvent;
      const chatId = event.data?.chatId;
      if (typeof event.userId !== 'string' || typeof chatId !== 'string') continue;
      if (event.type === 'whatsapp.message.sent' && event.data?.origin === 'phone') {
        await this.deps.bursts.dropOpen(event.userId, chatId);
        await this.deps.chats.ownerTookOver(event.userId, chatId);
      } else if (event.type === 'whatsapp.message.received' && this.answerable(event, chatId)) {
        const added = await this.deps.bursts.add(event.userId, chatId, event.data!.messageId as string, this.deps.quietMs);
        if (added) this.deps.clock.wakeIn(this.deps.quietMs);
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
      MESSAGE_ID.test(data.messageId) &&
      isPrivateChat(chatId) &&
      age <= MAX_EVENT_AGE_MS
    );
  }
}
