import type { InboxConversation } from './api';
import { CHANNEL_LABELS } from './format';

/** Where the customer writes from: WhatsApp or the website's chat. */
export function ChannelBadge({ channel }: { channel: InboxConversation['channel'] }) {
  return <span className={`badge inbox-channel is-${channel}`}>{CHANNEL_LABELS[channel]}</span>;
}
