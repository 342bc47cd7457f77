/** What a replica does with the bursts in PostgreSQL, one step at a time. */
export interface BurstLoop {
  /** Renews this replica's leases, then claims the bursts that fell due and starts answering them. */
  tick(): Promise<void>;
  /** Resolves once no answer of this replica is under way. */
  idle(): Promise<void>;
}

/**
 * When a replica looks for bursts that fell due: on its own timers in production, when the test says so in
 * tests. The ticks are also what renews the leases of the bursts being answered.
 */
export interface BurstClock {
  start(loop: BurstLoop): void;
  /** A burst this replica added to falls due in `ms`: tick then rather than at the next poll. */
  wakeIn(ms: number): void;
  /** Stops ticking and waits for the answers under way (a shutdown). */
  close(): Promise<void>;
}

/**
 * Ticks every `pollMs` and at the due time of the bursts this replica added to, never two ticks at once. The
 * poll is what finds bursts another replica added to, and those left by a replica that died; it is also the
 * lease renewal, so it must come well within a lease. (PostgreSQL's NOTIFY would not help: a due time is in
 * the future, and the embedded database does not deliver notifications at all.)
 */
export class PollingBurstClock implements BurstClock {
  private loop: BurstLoop | undefined;
  private poll: NodeJS.Timeout | undefined;
  private readonly wakes = new Set<NodeJS.Timeout>();
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly pollMs: number) {}

  start(loop: BurstLoop): void {
    this.loop = loop;
    this.poll = setInterval(() => this.run(), this.pollMs);
    this.poll.unref();
  }

  wakeIn(ms: number): void {
    if (this.stopped) return;
    const wake = setTimeout(() => {
      this.wakes.delete(wake);
      this.run();
    }, ms);
    wake.unref();
    this.wakes.add(wake);
  }

  /** Stops ticking at once and leaves the bursts it holds to their leases: what a replica that dies does. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.poll);
    for (const wake of this.wakes) clearTimeout(wake);
    this.wakes.clear();
  }

  async close(): Promise<void> {
    this.stop();
    await this.running;
    await this.loop?.idle();
  }

  private run(): void {
    const loop = this.loop;
    if (this.stopped || !loop) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await loop.tick();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }
}
