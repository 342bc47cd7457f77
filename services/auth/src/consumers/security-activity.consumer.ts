import type { EventValidator, Logger, Sql } from '@asistente/kit';
import type { SecurityActivityRecord, SecurityActivityRepository } from '../domain/security-activity.repository.js';

/** The durable consumer's name (shared by every auth replica: each event is handled by one of them). */
export const SECURITY_ACTIVITY_CONSUMER = 'auth-security-activity';

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
    private readonly events: EventValidator,
  ) {}

  handle = async (events: unknown[]): Promise<number> => {
    const records: SecurityActivityRecord[] = [];
    for (const raw of events) {
      if ((raw as { type?: unknown } | null)?.type !== 'security.activity.recorded') continue;
      const checked = this.events.validate(raw);
      if (!checked.ok || checked.event.type !== 'security.activity.recorded') {
        this.log.warn({ eventId: (raw as { id?: unknown }).id }, 'invalid security activity event skipped');
        continue;
      }
      const { id, userId, occurredAt, data } = checked.event;
      records.push({ id, userId, at: new Date(occurredAt).toISOString(), data });
    }
    if (records.length === 0) return 0;
    return this.sql.begin((tx) => this.activity.record(tx, records));
  };
}
