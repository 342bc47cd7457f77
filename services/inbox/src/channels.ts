import type { ConversationChannel } from '@asistente/contracts';
import { WhatsAppChannel } from './adapters/whatsapp-channel.js';
import { WidgetProvider } from './adapters/widget-provider.js';
import type { ChannelRegistration } from './domain/channel.js';

/**
 * Every channel of the inbox, each registered once: the name its conversations carry, and how the inbox
 * builds it. WhatsApp lives in its own service (the inbox reads and sends through its routes); the website's
 * chat is a provider of the messaging port in this process. A channel the contracts list and this registry
 * lacks fails the build; a test adds its own channel to this list when it builds the inbox.
 */
export const INBOX_CHANNELS = {
  whatsapp: ({ services }) => new WhatsAppChannel(services),
  web: (parts) => new WidgetProvider(parts),
} satisfies Record<ConversationChannel, ChannelRegistration>;

/** The registry as the inbox is given it: the product's channels, and any a test adds. */
export type InboxChannels = typeof INBOX_CHANNELS & Record<string, ChannelRegistration>;
