import type { DayWindow } from './rollups.repository.js';

export const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;
export type Period = keyof typeof PERIOD_DAYS;
export const DEFAULT_TIME_ZONE = 'Europe/Madrid';

/** True when the runtime knows the IANA zone (so will Postgres: both ship the tz database). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The local calendar date of `at` in `tz`, as YYYY-MM-DD. */
export function localDate(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A period is the last N local days, today included. */
export function dayWindow(period: Period, tz: string, now: Date = new Date()): DayWindow {
  const today = localDate(now, tz);
  return { tz, today, startDay: addDays(today, 1 - PERIOD_DAYS[period]) };
}
