/** How long the gateway's proofs hold: the hop from the gateway to the service, with room for clocks a little apart. */
export const PROOF_TTL_MS = 2_000;

/**
 * Proofs the gateway hands the services, one HMAC per subject (a token, a client address) per half of
 * `PROOF_TTL_MS` instead of one per request: a proof made for a subject is handed on while at least half
 * its life is left, so it holds a second at least, never longer than a fresh one.
 */
export class KeptProofs {
  private readonly made = new Map<string, { until: number; proof: string }>();

  constructor(
    private readonly make: (subject: string, now: number) => string,
    private readonly capacity: number,
  ) {}

  for(subject: string, now = Date.now()): string {
    const kept = this.made.get(subject);
    if (kept && kept.until - now >= PROOF_TTL_MS / 2) return kept.proof;
    const proof = this.make(subject, now);
    // Full: start again (the subjects in use come back at once); a long-lived map of stale ones helps no one.
    if (!kept && this.made.size >= this.capacity) this.made.clear();
    this.made.set(subject, { until: now + PROOF_TTL_MS, proof });
    return proof;
  }
}
