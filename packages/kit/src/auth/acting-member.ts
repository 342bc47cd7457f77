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

/**
 * Work a request merely starts, not what its member asked for: it names no one, even as it runs on after the
 * answer. A delivery run kicked by one member's send also sends what others and the rules queued; each of
 * those names its own sender, never the member who happened to wake it.
 */
export function runAsNoOne<T>(work: () => T): T {
  return acting.exit(work);
}
