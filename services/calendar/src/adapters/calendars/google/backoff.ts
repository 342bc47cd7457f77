export interface BackoffOptions {
  /** Attempts after the first. */
  retries: number;
  /** First delay; each next one doubles, plus up to 50% jitter. */
  baseMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { retries: 4, baseMs: 500 };

/** Runs `fn`, again after a growing pause while `retryable` says the failure is worth another try. */
export async function withBackoff<T>(fn: () => Promise<T>, retryable: (error: unknown) => boolean, options: BackoffOptions): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= options.retries || !retryable(error)) throw error;
      const delay = options.baseMs * 2 ** attempt;
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay * 0.5));
    }
  }
}
