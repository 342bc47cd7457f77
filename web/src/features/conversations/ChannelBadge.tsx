import type { InboxConversation } from './api';
import { CHANNEL_NAMES } from '../../lib/channels';

/** Where the customer writes from: WhatsApp or the website's chat. */
export function ChannelBadge({ channel }: { channel: InboxConversation['channel'] }) {
  return <span className={`badge inbox-channel is-${channel}`}>{CHANNEL_NAMES[channel]}</span>;
}
