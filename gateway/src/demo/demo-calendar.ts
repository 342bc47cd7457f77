import type { Random } from './random.js';

export const DEMO_DAYS = 90;
const DAY_MS = 86_400_000;

/** A moment during office hours (08:00-19:00 UTC, roughly 09:00-20:00 in Spain), `daysAgo` days before `now`. */
export function businessMoment(random: Random, now: Date, daysAgo: number): Date {
  const day = new Date(now.getTime() - daysAgo * DAY_MS);
  day.setUTCHours(random.int(8, 18), random.int(0, 59), random.int(0, 59), 0);
  return day;
}

export function isWeekend(date: Date): boolean {
  const dow = date.getUTCDay();
  return dow === 0 || dow === 6;
}
