/** A replica that answered ready this recently still counts as ready while its probes only time out. */
export const SLOW_GRACE_MS = 10_000;
/** Under the kit's own 2 s bound on a /ready check, so a slow replica is judged here, not by that bound. */
export const PROBE_TIMEOUT_MS = 1000;

type Outcome = 'ready' | 'not-ready' | 'slow';

/**
 * Whether a service behind the gateway can serve: some replica of it answers its `/ready`. A replica that
 * is gone refuses at once; one that only answers late is busy (a load spike, a long collection), and an
 * unready gateway would take every service off the load balancer for it. So a probe that times out keeps
 * the replica's last answer for SLOW_GRACE_MS; a refusal or a not-ready answer counts at once.
 */
export class ReplicaReadiness {
  private readonly readyAt = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    /** When a probe still unanswered counts as late (tests settle it on a state instead of a clock). */
    private readonly late: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, PROBE_TIMEOUT_MS)),
  ) {}

  async anyReady(urls: string[]): Promise<boolean> {
    return (await Promise.all(urls.map((url) => this.ready(url)))).some(Boolean);
  }

  async ready(url: string): Promise<boolean> {
    const outcome = await this.probe(url);
    if (outcome === 'ready') this.readyAt.set(url, this.now());
    if (outcome === 'not-ready') this.readyAt.delete(url);
    if (outcome !== 'slow') return outcome === 'ready';
    const last = this.readyAt.get(url);
    return last !== undefined && this.now() - last < SLOW_GRACE_MS;
  }

  /** The timer is this probe's own, not the fetch's abort: it settles first even when the loop was busy. */
  private probe(url: string): Promise<Outcome> {
    const abort = new AbortController();
    const slow = this.late().then((): Outcome => 'slow');
    const answered = fetch(`${url}/ready`, { signal: abort.signal }).then(
      async (response): Promise<Outcome> => {
        await response.body?.cancel();
        return response.ok ? 'ready' : 'not-ready';
      },
      (): Outcome => 'not-ready',
    );
    return Promise.race([answered, slow]).finally(() => abort.abort());
  }
}
