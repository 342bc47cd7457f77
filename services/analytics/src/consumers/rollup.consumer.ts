import type { EventEnvelope, Logger, Sql } from '@asistente/kit';
import type { EventValidator } from '../domain/event-validator.js';
import { incrementsFor, whatsappChatOf } from '../domain/metrics.js';
import type { RollupsRepository } from '../domain/rollups.repository.js';

export type ApplyResult = 'applied' | 'duplicate' | 'parked';

/** The signal telling live screens a user's figures moved; payload = user id. */
export const ROLLUPS_CHANGED = 'analytics.changed';

/**
 * Applies each event to the rollups exactly once: the event id is recorded
 * and the counters updated in one transaction, and the bus acks only after
 * it commits. A redelivery (out of order, or after a crash between commit
 * and ack) finds the id and changes nothing. Invalid events are parked and
 * counted, never thrown back at the bus: one bad producer must not stall
 * the stream.
 */
export class RollupConsumer {
  constructor(
    private readonly sql: Sql,
    private readonly rollups: RollupsRepository,
    private readonly validator: EventValidator,
    private readonly log: Logger,
    private readonly onApplied: (userId: string) => void = () => {},
  ) {}

  handle = async (input: EventEnvelope | unknown): Promise<ApplyResult> => {
    const checked = this.validator.validate(input);
    if (!checked.ok) {
      const raw = input as Partial<EventEnvelope> | null;
      await this.rollups.park(typeof raw?.id === 'string' ? raw.id : undefined, typeof raw?.type === 'string' ? raw.type : undefined, checked.reason, input ?? null);
      this.log.warn({ eventId: raw?.id, reason: checked.reason }, 'invalid event parked');
      return 'parked';
    }
    const { event } = checked;
    const applied = await this.sql.begin(async (tx) => {
      if (!(await this.rollups.recordEvent(tx, event))) return false;
      await this.rollups.addToHour(tx, event.userId, event.occurredAt, incrementsFor(event));
      const chat = whatsappChatOf(event);
      if (chat) await this.rollups.touchChat(tx, event.userId, chat, event.occurredAt);
      return true;
    });
    if (!applied) return 'duplicate';
    this.onApplied(event.userId);
    return 'applied';
  };
}
