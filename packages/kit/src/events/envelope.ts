import { randomUUID } from 'node:crypto';

/** The shape every domain event travels in, on the outbox, the bus and in consumers. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  userId: string;
  occurredAt: string;
  data: TData;
}

export function createEvent<TType extends string, TData>(
  type: TType,
  userId: string,
  data: TData,
  occurredAt: Date = new Date(),
): EventEnvelope<TType, TData> {
  return { id: randomUUID(), type, userId, occurredAt: occurredAt.toISOString(), data };
}
