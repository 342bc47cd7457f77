import type { Channel, ChannelMessage } from '../domain/channel.js';

/**
 * The website's chat as a channel of the inbox. Its visitors read their thread from the inbox itself (the
 * widget's stream), so an answer is delivered once the inbox records it: sending is naming the message. The
 * client id is its id, so the same send again meets the row already recorded.
 */
export class WebChannel implements Channel {
  readonly name = 'web' as const;

  send(_caller: unknown, handle: string, text: string, clientId: string): Promise<ChannelMessage> {
    return Promise.resolve({ id: clientId, handle, name: null, direction: 'outgoing', direct: true, text, at: new Date() });
  }
}
