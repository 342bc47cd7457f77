import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The member whose request is being answered, for whatever that request writes: every event an outbox takes
 * while a route's handler runs names them (`actorId`), without each domain call passing it down. Work that
 * no member asked for (consumers, timers, the assistant answering a customer) runs outside it and names no one.
 */
const acting = new AsyncLocalStorage<string>();

export function runAsMember<T>(memberId: string, work: () => T): T {
  return acting.run(memberId, work);
}

export function currentMemberId(): string | undefined {
  return acting.getStore();
}
