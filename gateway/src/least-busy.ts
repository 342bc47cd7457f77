/** How long a replica that failed a connection is passed over: long enough that a dead one costs no request a try. */
const REST_MS = 1_000;

/**
 * Which replica of a service gets the next request: the one with the fewest requests in flight from this
 * gateway, ties taken in turn. Equal replicas share the load as round-robin would; one that stalls (a
 * garbage collection, a slow query, a machine short of CPU) stops receiving new requests until it catches
 * up, so its pause delays the requests it holds and not the ones that come after. A replica whose
 * connection failed answers instantly and so is never busy: it rests for a while instead, unless all do.
 */
export class LeastBusy {
  private readonly inFlight: number[];
  private readonly restingUntil: number[];
  private turn = 0;

  constructor(replicas: number, private readonly now: () => number = Date.now) {
    this.inFlight = new Array<number>(replicas).fill(0);
    this.restingUntil = new Array<number>(replicas).fill(0);
  }

  pick(): number {
    const count = this.inFlight.length;
    const start = this.turn++ % count;
    const now = this.now();
    let best = start;
    for (let step = 1; step < count; step++) {
      const replica = (start + step) % count;
      if (this.better(replica, best, now)) best = replica;
    }
    return best;
  }

  /** Counts a request sent to `replica` until the returned function is called (once, when it is answered). */
  begin(replica: number): () => void {
    this.inFlight[replica]!++;
    return () => this.inFlight[replica]!--;
  }

  /** `replica` refused or dropped a connection: others get the next requests for a while. */
  rest(replica: number): void {
    this.restingUntil[replica] = this.now() + REST_MS;
  }

  private better(candidate: number, best: number, now: number): boolean {
    const candidateRests = this.restingUntil[candidate]! > now;
    const bestRests = this.restingUntil[best]! > now;
    if (candidateRests !== bestRests) return bestRests;
    return this.inFlight[candidate]! < this.inFlight[best]!;
  }
}
