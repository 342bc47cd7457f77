import { Value } from '@sinclair/typebox/value';
import { SecurityActivityEventData } from '@asistente/contracts';
import type { EventEnvelope, Logger, Sql } from '@asistente/kit';
import type { SecurityActivityRecord, SecurityActivityRepository } from '../domain/security-activity.repository.js';

/** The durable consumer's name (shared by every auth replica: each event is handled by one of them). */
export const SECURITY_ACTIVITY_CONSUMER = 'auth-security-activity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Writes every service's `security.activity.recorded` events into auth.security_activity, a batch per
 * transaction; the bus acks after it commits, and a redelivery finds the ids written and adds nothing.
 * A malformed event is logged and skipped, never thrown back: one bad producer must not stall the log.
 */
export class SecurityActivityConsumer {
  constructor(
    private readonly sql: Sql,
    private readonly activity: SecurityActivityRepository,
    private readonly log: Logger,
  ) {}

  handle = async (events: EventEnvelope[]): Promise<number> => {
    const records: SecurityActivityRecord[] = [];
    for (const event of events) {
      if (event.type !== 'security.activity.recorded') continue;
      const at = new Date(event.occurredAt);
      if (!UUID.test(event.id) || !UUID.test(event.userId) || Number.isNaN(at.getTime()) || !Value.Check(SecurityActivityEventData, event.data)) {
        this.log.warn({ eventId: event.id }, 'invalid security activity event skipped');
        continue;
      }
      records.push({ id: event.id, userId: event.userId, at: at.toISOString(), data: event.data });
    }
    if (records.length === 0) return 0;
    return this.sql.begin((tx) => this.activity.record(tx, records));
  };
}
