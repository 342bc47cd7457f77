import { randomUUID } from 'node:crypto';
import type { EventData, EventType } from '@asistente/contracts';

/** The shape every domain event travels in, on the outbox, the bus and in consumers. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  /** Whose data: the workspace for what the workspace shares, the person for their own mail and calendars. */
  userId: string;
  /** The member whose request caused it, when one did (set by the outbox from the request being answered). */
  actorId?: string;
  occurredAt: string;
  data: TData;
}

/** A domain event of the catalogue (packages/contracts/src/events.ts): only its types, each with its data shape. */
export function createEvent<TType extends EventType>(
  type: TType,
  userId: string,
  data: EventData<TType>,
  occurredAt: Date = new Date(),
): EventEnvelope<TType, EventData<TType>> {
  return { id: randomUUID(), type, userId, occurredAt: occurredAt.toISOString(), data };
}
