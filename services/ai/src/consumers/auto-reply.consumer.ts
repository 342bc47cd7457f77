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

/**
 * The event side of automatic answers, from the team inbox whatever the channel. A customer's message that
 * arrived live (not history), in a person's own conversation, that no keyword rule answered, joins its
 * conversation's burst in PostgreSQL (once, however often its event is delivered and to whichever replica); the
 * burst is answered once the conversation has been quiet for `quietMs` (BurstScheduler, BurstAnswerer). A person
 * answering drops the waiting burst; the owner writing from the phone also pauses the chat for 30 minutes.
 */
export class AutoReplyConsumer {
  constructor(
    private readonly deps: {
      bursts: ChatBurstsRepository;
      chats: ChatStateService;
      /** The inbox's conversation, for the chat key of a phone takeover. */
      chatKeyOf: (workspaceId: string, conversationId: string) => Promise<string | undefined>;
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
      if (event.type === 'conversation.message.sent' && (event.data.author === 'phone' || event.data.author === 'member')) {
        await this.deps.bursts.dropOpen(event.userId, event.data.conversationId);
        if (event.data.author === 'phone') await this.phoneTookOver(event.userId, event.data.conversationId);
      } else if (event.type === 'conversation.message.received' && answerable(event.data, event.occurredAt)) {
        const added = await this.deps.bursts.add(event.userId, event.data.conversationId, event.data.entryId, this.deps.quietMs);
        if (added) this.deps.clock.wakeIn(this.deps.quietMs);
      }
    }
  };

  private async phoneTookOver(workspaceId: string, conversationId: string): Promise<void> {
    const chatKey = await this.deps.chatKeyOf(workspaceId, conversationId);
    if (chatKey) await this.deps.chats.ownerTookOver(workspaceId, chatKey);
  }
}

function answerable(data: EventData<'conversation.message.received'>, occurredAt: string): boolean {
  const age = Date.now() - Date.parse(occurredAt);
  return data.live && data.direct === true && data.autoAnswered !== true && age <= MAX_EVENT_AGE_MS;
}
