import { randomUUID } from 'node:crypto';
import { consumedTraceparent, type EventEnvelope, type Sql } from '@asistente/kit';
import type { DeliveriesRepository, NewDelivery } from '../domain/deliveries.repository.js';
import type { EnabledEndpoint, EndpointsRepository } from '../domain/endpoints.repository.js';
import { toWebhookEvent, webhookBody, type WebhookEvent } from '../domain/event-mapping.js';
import type { Clock } from '../domain/dispatcher.js';
import { IMPORT_WRITTEN, importedContacts, importedTypesHeard } from '../domain/imported-contacts.js';

/**
 * Turns the event stream into delivery rows: each event a user's enabled endpoints subscribe to becomes one
 * row per endpoint (its body with the record's fields, or the ids alone for an endpoint set to "Solo
 * identificadores"), the whole batch in one transaction, and the bus acks only after it commits. A
 * redelivered event (a lost ack, a replay) meets the (event, endpoint) key and adds nothing: at least
 * once in, one delivery out. After the commit the dispatcher is poked, so a new delivery leaves at once.
 * An import's batch event becomes one contact.created or contact.updated per contact it carries, worked out
 * only for an owner with an endpoint that hears them: an import nobody subscribes to costs one lookup.
 */
export class DeliveriesConsumer {
  constructor(
    private readonly sql: Sql,
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly afterCommit: () => void,
    private readonly now: Clock = () => new Date(),
  ) {}

  handle = async (events: EventEnvelope[]): Promise<number> => {
    // One per event id: a batch may carry the same event twice. Each with the id of the event it came from (its trace).
    const singles = new Map<string, Sourced>();
    const imports = new Map<string, EventEnvelope>();
    for (const event of events) {
      if (event.type === IMPORT_WRITTEN) imports.set(event.id, event);
      else {
        const mapped = toWebhookEvent(event);
        if (mapped) singles.set(mapped.eventId, { event: mapped, from: event.id });
      }
    }
    if (singles.size === 0 && imports.size === 0) return 0;
    const now = this.now();
    const inserted = await this.sql.begin(async (tx) => {
      const owners = new Set([...[...singles.values()].map(({ event }) => event.userId), ...[...imports.values()].map((e) => e.userId)]);
      const endpoints = await this.endpoints.enabledOf(tx, [...owners]);
      let count = await this.deliveries.insert(rowsFor([...singles.values()], endpoints, now), now, tx);
      // Each import's batch event queued apart: it holds 250 contacts at most, so however many arrive together
      // the rows held at once stay few, and one statement's parameters (250 × 10 endpoints × 9) within 65,535.
      for (const batch of imports.values()) {
        const heard = importedTypesHeard(endpoints.filter((endpoint) => endpoint.userId === batch.userId));
        if (heard.size === 0) continue;
        const contacts = importedContacts(batch, heard).map((event) => ({ event, from: batch.id }));
        count += await this.deliveries.insert(rowsFor(contacts, endpoints, now), now, tx);
      }
      return count;
    });
    if (inserted > 0) this.afterCommit();
    return inserted;
  };
}

/** A webhook event and the id of the event it came from (whose consumer span its attempts link to). */
interface Sourced {
  event: WebhookEvent;
  from: string;
}

/** One delivery per event and endpoint of its owner that hears its type. */
function rowsFor(events: Sourced[], endpoints: EnabledEndpoint[], now: Date): NewDelivery[] {
  const rows: NewDelivery[] = [];
  for (const { event, from } of events) {
    for (const endpoint of endpoints) {
      if (endpoint.userId !== event.userId || !endpoint.events.includes(event.type)) continue;
      if (event.onlyNewerThanEndpoint && new Date(event.occurredAt) < endpoint.createdAt) continue;
      rows.push({
        id: randomUUID(),
        endpointId: endpoint.id,
        userId: event.userId,
        eventId: event.eventId,
        type: event.type,
        body: webhookBody(event.type, event.occurredAt, endpoint.idsOnly ? event.ids : event.data),
        nextAttemptAt: now,
        // Each attempt's span links back to the consumer span that handled this event (and through it the request).
        traceparent: consumedTraceparent(from) ?? null,
      });
    }
  }
  return rows;
}
