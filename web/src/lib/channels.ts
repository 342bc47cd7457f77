import type { ConversationChannel } from '@asistente/contracts';

/** How every screen names a conversation's channel (the inbox's badges, the analytics per channel). */
export const CHANNEL_NAMES: Record<ConversationChannel, string> = {
  whatsapp: 'WhatsApp',
  web: 'Chat web',
};
