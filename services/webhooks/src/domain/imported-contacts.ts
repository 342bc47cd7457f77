import { createHash } from 'node:crypto';
import type { WebhookEventType } from '@asistente/contracts';
import type { EventEnvelope } from '@asistente/kit';
import { toWebhookEvent, type WebhookEvent } from './event-mapping.js';

/** The event in which an import announces the contacts of one batch (packages/contracts/src/events.ts). */
export const IMPORT_WRITTEN = 'contacts.import.written';

/** What an import's contacts become for an endpoint: one of these per contact. */
const CONTACT_TYPES: readonly WebhookEventType[] = ['contact.created', 'contact.updated'];

/** The types of an import's contacts that some of these endpoints hear (empty: the import is nobody's news). */
export function importedTypesHeard(endpoints: readonly { events: readonly WebhookEventType[] }[]): Set<WebhookEventType> {
  return new Set(endpoints.flatMap((endpoint) => endpoint.events.filter((type) => CONTACT_TYPES.includes(type))));
}

/**
 * The id of one contact's event inside a batch event, the same every time it is worked out: a redelivered
 * batch finds its deliveries already queued (event, endpoint) and adds none. Laid out as a UUID (RFC 9562
 * version 8, its bits from a SHA-256 of the two ids), which the deliveries' `event_id` column wants.
 */
export function contactEventId(batchEventId: string, contactId: string): string {
  const hex = createHash('sha256').update(`${batchEventId}/${contactId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type Data = Record<string, unknown>;

/**
 * One webhook event per contact of an import's batch event, shaped by the same mapping as a single
 * `contacts.contact.created` / `contacts.contact.updated` (so a receiver cannot tell an import's contact from
 * one added by hand), keeping only the types in `heard`. Malformed entries are left out.
 */
export function importedContacts(event: EventEnvelope, heard: ReadonlySet<WebhookEventType>): WebhookEvent[] {
  const contacts = typeof event.data === 'object' && event.data !== null ? (event.data as Data).contacts : undefined;
  if (!Array.isArray(contacts)) return [];
  const events: WebhookEvent[] = [];
  for (const entry of contacts as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { contactId, created, changed, contact } = entry as Data;
    if (typeof contactId !== 'string') continue;
    const email = typeof contact === 'object' && contact !== null ? (contact as Data).email : undefined;
    const single = {
      id: contactEventId(event.id, contactId),
      userId: event.userId,
      occurredAt: event.occurredAt,
      ...(created === true
        ? { type: 'contacts.contact.created', data: { contactId, hasEmail: typeof email === 'string', contact } }
        : { type: 'contacts.contact.updated', data: { contactId, changed, contact } }),
    };
    const mapped = toWebhookEvent(single);
    if (mapped && heard.has(mapped.type)) events.push(mapped);
  }
  return events;
}
