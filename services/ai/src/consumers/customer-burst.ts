import type { WhatsAppMessage } from '@asistente/contracts';

/**
 * The customer's lines of a burst, from its messages as the WhatsApp service answers them by id: the incoming
 * ones with text, in the order WhatsApp stored them (`seq`: timestamps in whole seconds cannot order three
 * lines written within one second, and the events of one burst may have reached different replicas).
 */
export function customerLines(messages: readonly WhatsAppMessage[]): string[] {
  return messages
    .filter((message) => message.type === 'incoming')
    .sort((a, b) => a.seq - b.seq)
    .map((message) => message.message.trim())
    .filter((line) => line !== '');
}
