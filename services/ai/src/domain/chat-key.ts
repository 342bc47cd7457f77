import type { ConversationChannel } from '@asistente/contracts';

/**
 * The one key of a customer's chat in the assistant's own state (its pauses, its daily cap, its bookings): the
 * channel and the customer's handle there (`whatsapp:+34600111222`). Channel-neutral, and stable across the
 * conversations one customer opens over time, which a pause set on the chat must outlive.
 */
export function chatKeyOf(channel: ConversationChannel, handle: string): string {
  return `${channel}:${handle}`;
}
