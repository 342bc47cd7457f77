import type { ErasureProgressedEventData } from '@asistente/contracts';
import { EventValidator, type EventEnvelope, type Logger, type Sql } from '@asistente/kit';
import type { AccountDeletionsRepository } from '../domain/account-deletions.repository.js';

/** The durable consumer's name (shared by every auth replica). */
export const ERASURE_PROGRESS_CONSUMER = 'auth-erasure-progress';

/**
 * Records every service's `account.erasure.progressed` under its deletion, a batch per transaction; the
 * bus acks after the commit and a redelivery writes the same states again. A malformed report is logged
 * and skipped: one bad producer must not stall the progress of every deletion.
 */
export class ErasureProgressConsumer {
  private readonly validator = new EventValidator();

  constructor(
    private readonly sql: Sql,
    private readonly deletions: AccountDeletionsRepository,
    private readonly log: Logger,
  ) {}

  handle = async (events: EventEnvelope[]): Promise<void> => {
    const reports: ErasureProgressedEventData[] = [];
    for (const event of events) {
      if (event.type !== 'account.erasure.progressed') continue;
      const checked = this.validator.validate(event);
      if (!checked.ok || checked.event.type !== 'account.erasure.progressed') {
        this.log.warn({ eventId: event.id }, 'invalid erasure progress skipped');
        continue;
      }
      reports.push(checked.event.data);
    }
    if (reports.length > 0) await this.sql.begin((tx) => this.deletions.record(tx, reports));
  };
}
