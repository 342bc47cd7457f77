import { WEBHOOK_RETRY_WINDOW_MS } from '@asistente/contracts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Wait before the next attempt after the n-th failed one (1-based), then hourly: Standard Webhooks' schedule. */
const DELAYS_MS = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR];

export function retryDelayMs(failedAttempts: number): number {
  return DELAYS_MS[Math.min(Math.max(failedAttempts, 1), DELAYS_MS.length) - 1]!;
}

/**
 * When to try a delivery again after its n-th failure: the schedule's delay, the last attempt made exactly
 * when the retry window (a day after the delivery was created) closes; undefined once it has closed, when
 * the delivery has failed for good.
 */
export function nextAttemptAt(createdAt: Date, failedAttempts: number, now: Date): Date | undefined {
  const deadline = createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS;
  if (now.getTime() >= deadline) return undefined;
  return new Date(Math.min(now.getTime() + retryDelayMs(failedAttempts), deadline));
}
