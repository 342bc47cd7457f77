import { workspaceOf, type MessagingProvider, type ServiceCaller } from '@asistente/kit';
import type { Channel, ChannelMessage } from './channel.js';

/**
 * A provider that runs in the inbox's own process (the website's chat, a test's in-memory channel), as the
 * inbox's send path asks for a channel: a text to a handle, under the sender's client id.
 */
export class ProviderChannel implements Channel {
  readonly name: string;

  constructor(private readonly provider: MessagingProvider) {
    this.name = provider.channel;
  }

  async send(caller: ServiceCaller, handle: string, text: string, clientId: string, sender: 'member' | 'assistant' = 'member'): Promise<ChannelMessage> {
    const sent = await this.provider.send(workspaceOf(caller), { handle, content: { kind: 'text', text }, clientId, sender });
    return { id: sent.id, handle: sent.handle, name: null, direction: 'outgoing', direct: true, text, at: sent.at };
  }
}
