import type { TransactionSql } from '../db/database.js';
import { currentMemberId } from '../auth/acting-member.js';
import { currentTraceparent } from '../observability/tracing/trace-context.js';
import type { EventEnvelope } from './envelope.js';

/**
 * A service's outbox table (`<schema>.outbox`): events are inserted in the
 * same transaction as the state they describe, and the relay publishes them
 * after commit. `onAppend` wakes the relay so delivery does not wait a poll.
 */
export class Outbox {
  readonly table: string;

  constructor(readonly schema: string, private readonly onAppend: () => void = () => {}) {
    this.table = `${schema}.outbox`;
  }

  async append(tx: TransactionSql, events: EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    // The request that wrote the events (tracing on): the relay's publish and the consumers continue its trace.
    const traceparent = currentTraceparent() ?? null;
    // The member whose request wrote them, if any: who did it travels with what was done.
    const member = currentMemberId() ?? null;
    const rows = events.map((e) => ({
      id: e.id,
      type: e.type,
      userId: e.userId,
      occurredAt: e.occurredAt,
      data: e.data as never,
      traceparent,
      actorId: e.actorId ?? member,
    }));
    await tx`insert into ${tx(this.table)} ${tx(rows, 'id', 'type', 'userId', 'occurredAt', 'data', 'traceparent', 'actorId')}`;
    // Delivered by PostgreSQL at commit, to every process listening: the relay wakes after the commit, not before.
    await tx`select pg_notify(${outboxChannel(this.table)}, '')`;
    setImmediate(this.onAppend);
  }
}

/** The NOTIFY channel of an outbox table (`contacts.outbox` → `outbox_contacts`). */
export function outboxChannel(table: string): string {
  return `outbox_${table.split('.')[0]}`;
}
