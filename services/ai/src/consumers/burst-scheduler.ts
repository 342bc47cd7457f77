import type { Logger } from '@asistente/kit';
import type { ChatBurstsRepository, ClaimedBurst } from '../domain/chat-bursts.repository.js';
import type { BurstLoop } from './burst-clock.js';
import { MAX_EVENT_AGE_MS } from './auto-reply.consumer.js';

/** Bursts one replica answers at once; the rest wait for a replica with room (or for this one's next tick). */
const MAX_IN_FLIGHT = 20;
/** A burst claimed this often without being answered (its replicas kept dying) is given up. */
const MAX_ATTEMPTS = 3;
/**
 * Seen messages are kept well past MAX_EVENT_AGE_MS: a redelivery of an older event is refused by its age,
 * so forgetting its message then cannot get it answered twice.
 */
const SEEN_RETENTION_MS = 12 * MAX_EVENT_AGE_MS;
const CLEANUP_EVERY_MS = 60_000;

/**
 * The answering side of the bursts kept in PostgreSQL. Each tick renews the leases of the bursts this
 * replica is answering, then claims bursts that fell due; their answers run beside the ticks. A replica that
 * dies stops renewing, and once its leases run out another replica's tick claims those bursts again.
 */
export class BurstScheduler implements BurstLoop {
  private readonly answering = new Map<string, Promise<void>>();
  private cleanedAt = 0;

  constructor(
    private readonly deps: {
      bursts: ChatBurstsRepository;
      answer: (burst: ClaimedBurst) => Promise<void>;
      /** This replica's name on the leases it holds. */
      replica: string;
      leaseMs: number;
      log: Logger;
    },
  ) {}

  tick = async (): Promise<void> => {
    const { bursts, replica, leaseMs } = this.deps;
    try {
      if (this.answering.size > 0) await bursts.renew(replica, [...this.answering.keys()], leaseMs);
      if (Date.now() - this.cleanedAt >= CLEANUP_EVERY_MS) {
        this.cleanedAt = Date.now();
        const dropped = await bursts.cleanUp(SEEN_RETENTION_MS, MAX_ATTEMPTS);
        if (dropped > 0) this.deps.log.warn({ dropped }, 'automatic answers given up: their replicas kept dying');
      }
      const room = MAX_IN_FLIGHT - this.answering.size;
      if (room > 0) for (const burst of await bursts.claim(replica, leaseMs, room, MAX_ATTEMPTS)) this.start(burst);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'automatic answers tick failed; the next one retries');
    }
  };

  idle = async (): Promise<void> => {
    while (this.answering.size > 0) await Promise.allSettled([...this.answering.values()]);
  };

  private start(burst: ClaimedBurst): void {
    const run = this.deps
      .answer(burst)
      .then(() => this.deps.bursts.finish(this.deps.replica, burst.id))
      // Left claimed: its lease runs out and another tick answers it again (the send is idempotent).
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'automatic answer not marked done'))
      .finally(() => this.answering.delete(burst.id));
    this.answering.set(burst.id, run);
  }
}
