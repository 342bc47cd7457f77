import type { DomainEvent } from '@asistente/contracts';
import type { EventValidator, Logger, Sql } from '@asistente/kit';
import type { ConversationFollower } from '../domain/conversation-follower.js';
import { Tally } from '../domain/tally.js';
import { isImportedContact } from '../domain/metrics.js';
import type { RollupsRepository } from '../domain/rollups.repository.js';

export interface ApplyReport {
  applied: number;
  duplicates: number;
  parked: number;
}

/** The signal telling live screens a user's figures moved; payload = user id. */
export const ROLLUPS_CHANGED = 'analytics.changed';

/**
 * Applies events to the rollups exactly once: the batch's event ids are
 * recorded, the counters updated and the conversations they touch derived
 * again (the team's figures) in one transaction, and the bus acks only
 * after it commits. A redelivery (out of order, or after a crash
 * between commit and ack) finds its ids recorded and changes nothing.
 * Invalid events are parked and counted, never thrown back at the bus: one
 * bad producer must not stall the stream.
 */
export class RollupConsumer {
  constructor(
    private readonly sql: Sql,
    private readonly rollups: RollupsRepository,
    private readonly conversations: ConversationFollower,
    private readonly validator: EventValidator,
    private readonly log: Logger,
    private readonly onApplied: (userId: string) => void = () => {},
  ) {}

  handle = async (inputs: unknown[]): Promise<ApplyReport> => {
    const valid = new Map<string, DomainEvent>();
    let parked = 0;
    for (const input of inputs) {
      const checked = this.validator.validate(input);
      // The security log's lines belong to auth: analytics neither counts nor keeps a copy of addresses and browsers.
      if (checked.ok && checked.event.type === 'security.activity.recorded') continue;
      // A deletion and its progress are no activity; kept, the deleted user's id would be written here again.
      if (checked.ok && (checked.event.type === 'user.deleted' || checked.event.type === 'account.erasure.progressed')) continue;
      // An import's contacts with their fields, for the webhooks (or, recorded before those, one by one): its
      // batches' contacts.contact.imported count them, and analytics keeps no copy of a person's details.
      if (checked.ok && (checked.event.type === 'contacts.import.written' || isImportedContact(checked.event))) continue;
      if (checked.ok) valid.set(checked.event.id, checked.event);
      else {
        parked++;
        await this.park(input, checked.reason);
      }
    }
    if (valid.size === 0) return { applied: 0, duplicates: 0, parked };
    const fresh = await this.sql.begin(async (tx) => {
      const recorded = new Set(await this.rollups.recordEvents(tx, [...valid.values()]));
      const events = [...valid.values()].filter((e) => recorded.has(e.id));
      const tally = new Tally();
      for (const event of events) tally.add(event);
      await this.rollups.addCounters(tx, tally.counters());
      await this.rollups.addTotals(tx, tally.totals());
      await this.rollups.touchChats(tx, tally.chats());
      // Last: it may wait for a replica deriving the same conversations, which by then touches only those
      // conversations' rows, never a counter or an event id this transaction holds (no deadlock).
      await this.conversations.apply(tx, events);
      return events;
    });
    for (const userId of new Set(fresh.map((e) => e.userId))) this.onApplied(userId);
    return { applied: fresh.length, duplicates: valid.size - fresh.length, parked };
  };

  private async park(input: unknown, reason: string): Promise<void> {
    const raw = input as { id?: unknown; type?: unknown } | null;
    const id = typeof raw?.id === 'string' ? raw.id : undefined;
    await this.rollups.park(id, typeof raw?.type === 'string' ? raw.type : undefined, reason, input);
    this.log.warn({ eventId: id, reason }, 'invalid event parked');
  }
}
