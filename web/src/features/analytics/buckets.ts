import type { ActivityPoint, AnalyticsPeriod, ContactsGrowthPoint } from './types';

/** Long periods are drawn by week: 13 or 53 points instead of 90 or 365. */
export const isWeekly = (period: AnalyticsPeriod): boolean => period === '90d' || period === '1y';

const DAY_MS = 86_400_000;

/** The Monday of the week holding `date` ('YYYY-MM-DD', read as UTC like the rest of the screen). */
export function weekStart(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

function groupByWeek<P extends { date: string }>(points: P[]): Map<string, P[]> {
  const weeks = new Map<string, P[]>();
  for (const point of points) {
    const key = weekStart(point.date);
    const week = weeks.get(key);
    if (week) week.push(point);
    else weeks.set(key, [point]);
  }
  return weeks;
}

/** Daily activity summed per week; each point is dated by its week's Monday. */
export function weeklyActivity(points: ActivityPoint[]): ActivityPoint[] {
  return [...groupByWeek(points)].map(([date, days]) => ({ date, activity: days.reduce((sum, p) => sum + p.activity, 0) }));
}

/** A running total per week is the total at the week's last day. */
export function weeklyGrowth(points: ContactsGrowthPoint[]): ContactsGrowthPoint[] {
  return [...groupByWeek(points)].map(([date, days]) => ({ date, contacts: days[days.length - 1]?.contacts ?? 0 }));
}
