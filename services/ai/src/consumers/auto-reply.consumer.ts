import type { EventData } from '@asistente/contracts';
import type { EventValidator } from '@asistente/kit';
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
      /** Events that do not match the catalogue are not acted on (and other services' events pass by). */
      events: EventValidator;
    },
  ) {}

  handle = async (events: unknown[]): Promise<void> => {
    for (const raw of events) {
      const checked = this.deps.events.validate(raw);
      if (!checked.ok) continue;
      const event = checked.event;
      if (event.type === 'whatsapp.message.sent' && event.data.origin === 'phone') {
        await this.deps.bursts.dropOpen(event.userId, event.data.chatId);
        await this.deps.chats.ownerTookOver(event.userId, event.data.chatId);
      } else if (event.type === 'whatsapp.message.received' && answerable(event.data, event.occurredAt)) {
        const added = await this.deps.bursts.add(event.userId, event.data.chatId, event.data.messageId, this.deps.quietMs);
        if (added) this.deps.clock.wakeIn(this.deps.quietMs);
      }
    }
  };
}

function answerable(data: EventData<'whatsapp.message.received'>, occurredAt: string): boolean {
  const age = Date.now() - Date.parse(occurredAt);
  return (
    data.live === true &&
    data.isGroup !== true &&
    data.keywordAnswered !== true &&
    MESSAGE_ID.test(data.messageId) &&
    isPrivateChat(data.chatId) &&
    age <= MAX_EVENT_AGE_MS
  );
}
