import type { ChannelIntake, IncomingMessage, Receipt } from '@asistente/kit';
import type { ChannelMessage } from './channel.js';
import type { Intake } from './intake.js';

/** What the inbox shows of a piece of media that came without words: its kind, in Spanish. */
const MEDIA_WORDS = { image: 'Imagen', document: 'Documento', audio: 'Audio', video: 'Vídeo' } as const;

/** A customer's message as a provider tells it, as the inbox records it: a person's own, live conversation. */
export function incomingChannelMessage(message: IncomingMessage): ChannelMessage {
  const text = message.text || message.media?.caption || (message.media ? `[${MEDIA_WORDS[message.media.kind]}]` : '');
  return { id: message.id, handle: message.handle, name: message.name, direction: 'incoming', direct: true, text, at: message.at };
}

/**
 * The inbox's own intake for one channel whose provider runs in the inbox (the website's chat, a test's
 * in-memory channel): each customer message is recorded as the channel's events are (a conversation found or
 * opened, assigned by the rule), once per provider id. Receipts are not kept: the inbox has no delivery
 * status to show yet.
 */
export class InboxChannelIntake implements ChannelIntake {
  constructor(
    private readonly intake: Pick<Intake, 'record'>,
    private readonly channel: string,
  ) {}

  async received(workspaceId: string, messages: IncomingMessage[]): Promise<void> {
    for (const message of messages) {
      await this.intake.record(workspaceId, this.channel, incomingChannelMessage(message), { author: 'customer', authorId: null, live: true });
    }
  }

  receipts(_workspaceId: string, _receipts: Receipt[]): Promise<void> {
    return Promise.resolve();
  }
}
