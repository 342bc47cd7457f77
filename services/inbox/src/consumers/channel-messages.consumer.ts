import type { DomainEvent } from '@asistente/contracts';
import { ServiceCallError, type EventEnvelope, type EventValidator, type Logger } from '@asistente/kit';
import type { Channel, MessageOrigin, MessageSource } from '../domain/channel.js';
import type { Intake } from '../domain/intake.js';
import type { MemberDeparture } from '../domain/member-departure.js';

/** Name of the durable JetStream consumer (shared by every inbox replica). */
export const INBOX_CONSUMER = 'inbox';

/** The WhatsApp service's message ids; an event naming anything else (the demo's seeded history) has no message to read. */
const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const READ = new Set(['whatsapp.message.received', 'whatsapp.message.sent', 'workspace.member.left', 'user.deleted']);

type Received = Extract<DomainEvent, { type: 'whatsapp.message.received' | 'whatsapp.message.sent' }>;

/** Who wrote a message, in the inbox's words, from the WhatsApp event that told it. */
function originOf(event: Received): MessageOrigin {
  if (event.type === 'whatsapp.message.received') {
    return { author: 'customer', authorId: null, live: event.data.live !== false, autoAnswered: event.data.keywordAnswered === true };
  }
  const origin = event.data.origin ?? 'app';
  const author = origin === 'ai' ? 'assistant' : origin === 'keyword' ? 'keyword' : origin === 'phone' ? 'phone' : 'member';
  return { author, authorId: author === 'member' ? (event.actorId ?? null) : null, live: true };
}

/**
 * The channels' messages into the inbox: each batch's WhatsApp messages are read from the WhatsApp service
 * (one call per workspace) and recorded in their order. A redelivered event finds its message stored and
 * changes nothing. A member who left a workspace leaves their conversations unassigned.
 */
export class ChannelMessagesConsumer {
  constructor(
    private readonly deps: { intake: Intake; whatsapp: Channel & MessageSource; departures: MemberDeparture; events: EventValidator; log: Logger },
  ) {}

  handle = async (envelopes: EventEnvelope[]): Promise<void> => {
    const byWorkspace = new Map<string, Received[]>();
    for (const envelope of envelopes) {
      if (!READ.has(envelope.type)) continue;
      const checked = this.deps.events.validate(envelope);
      if (!checked.ok) continue;
      const event = checked.event;
      if (event.type === 'workspace.member.left') await this.deps.departures.left(event.userId, event.data.memberId);
      else if (event.type === 'user.deleted') await this.deps.departures.left(null, event.userId);
      else if ((event.type === 'whatsapp.message.received' || event.type === 'whatsapp.message.sent') && MESSAGE_ID.test(event.data.messageId)) {
        const list = byWorkspace.get(event.userId) ?? [];
        list.push(event);
        byWorkspace.set(event.userId, list);
      }
    }
    for (const [workspaceId, events] of byWorkspace) {
      const found = new Map((await this.read(workspaceId, events.map((e) => e.data.messageId))).map((m) => [m.id, m]));
      for (const event of events) {
        const message = found.get(event.data.messageId);
        // Gone already (retention, an erasure): nothing to show.
        if (message) await this.deps.intake.record(workspaceId, 'whatsapp', message, originOf(event));
      }
    }
  };

  /**
   * The channel's messages, or none when it refuses the question (asking again would get the same refusal, and a
   * batch that never passes would hold every consumer behind it); its failures (5xx, unreachable) are thrown, so
   * the batch comes again.
   */
  private async read(workspaceId: string, ids: string[]) {
    try {
      return await this.deps.whatsapp.messages(workspaceId, ids);
    } catch (error) {
      if (!(error instanceof ServiceCallError) || error.statusCode >= 500) throw error;
      this.deps.log.warn({ workspaceId, statusCode: error.statusCode, messages: ids.length }, 'inbox: the channel refused to read these messages; skipped');
      return [];
    }
  }
}
