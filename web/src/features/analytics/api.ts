import { getJson } from '../../lib/http';
import { userTimeZone } from '../../lib/time-zone';
import type { AnalyticsData, AnalyticsPeriod } from './types';

/**
 * One figure of the screen. A failure fails the whole load (logged, no toast): the screen keeps the figures
 * it had, marked stale, or says they could not load; zeros are never shown in place of figures.
 */
async function figure<T>(path: string, period: AnalyticsPeriod): Promise<T> {
  try {
    return await getJson<T>(`analytics/${path}`, { searchParams: { period, tz: userTimeZone() } });
  } catch (err) {
    console.error(`No se pudo cargar analytics/${path}`, err);
    throw err;
  }
}

/** The seven figures of a period, requested in parallel. */
export async function loadAnalytics(period: AnalyticsPeriod): Promise<AnalyticsData> {
  const [totals, activity, growth, emails, whatsapp, teams, productivity] = await Promise.all([
    figure<AnalyticsData['totals']>('dashboard', period),
    figure<AnalyticsData['activity']>('activity', period),
    figure<AnalyticsData['growth']>('contacts-growth', period),
    figure<AnalyticsData['emails']>('emails', period),
    figure<AnalyticsData['whatsapp']>('whatsapp', period),
    figure<AnalyticsData['teams']>('teams', period),
    figure<AnalyticsData['productivity']>('productivity', period),
  ]);
  return { period, totals, activity, growth, emails, whatsapp, teams, productivity };
}
