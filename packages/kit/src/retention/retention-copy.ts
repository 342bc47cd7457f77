import { Value } from '@sinclair/typebox/value';
import { RetentionSettings } from '@asistente/contracts';
import type { Logger } from 'pino';
import type { Sql } from '../db/database.js';
import type { EventEnvelope } from '../events/envelope.js';

/** Which of the owner's settings a service applies to the data it holds. */
export type RetentionKind = keyof RetentionSettings;

/**
 * A service's own copy of the one retention setting it applies (`<schema>.retention`: user_id, days,
 * changed_at), kept from auth's `account.retention.changed` events: the job that erases reads its own
 * schema, never auth's, and works while auth is down. The newest setting wins whatever the delivery order;
 * a redelivery writes the same row again.
 */
export class RetentionCopy {
  constructor(
    private readonly sql: Sql,
    /** `<schema>.retention`, created by the service's migration. */
    private readonly table: string,
    private readonly kind: RetentionKind,
    private readonly log: Logger,
  ) {}

  handle = async (events: EventEnvelope[]): Promise<void> => {
    for (const event of events) {
      if (event.type !== 'account.retention.changed') continue;
      const changedAt = new Date(event.occurredAt);
      if (!Value.Check(RetentionSettings, event.data) || Number.isNaN(changedAt.getTime())) {
        this.log.warn({ eventId: event.id }, 'invalid retention event skipped');
        continue;
      }
      const days = event.data[this.kind];
      await this.sql`
        insert into ${this.sql(this.table)} as r (user_id, days, changed_at) values (${event.userId}, ${days}, ${changedAt})
        on conflict (user_id) do update set days = excluded.days, changed_at = excluded.changed_at
        where r.changed_at <= excluded.changed_at`;
    }
  };
}
