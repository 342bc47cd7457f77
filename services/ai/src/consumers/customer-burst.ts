import type { ConversationEntry } from '@asistente/contracts';

/**
 * A customer's line written longer ago than this is not answered: the inbox may pass on a message late (back from
 * an outage, its events redelivered), and an answer to what the customer wrote hours ago would be out of place.
 * Wider than the events' own age limit, so a burst answered again after its replica died still goes out.
 */
export const MAX_LINE_AGE_MS = 15 * 60_000;

/**
 * The customer's lines of a burst, from its entries as the inbox answers them by id (in the order it stored them:
 * timestamps in whole seconds cannot order three lines written within one second, and the events of one burst
 * may have reached different replicas): the customer's messages with text, written since `notBefore`.
 */
export function customerLines(entries: readonly ConversationEntry[], notBefore: number): string[] {
  return entries
    .filter((entry) => entry.kind === 'message' && entry.direction === 'incoming' && Date.parse(entry.at) >= notBefore)
    .map((entry) => entry.text.trim())
    .filter((line) => line !== '');
}
