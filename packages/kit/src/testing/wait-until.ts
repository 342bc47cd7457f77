/**
 * Polls `check` until it holds and answers what it found: tests wait for states, never for time. Past `ms`
 * it throws, naming `what` it waited for.
 */
export async function waitUntil<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 10_000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
