import { getJson } from '../../lib/http';
import { userTimeZone } from '../../lib/time-zone';
import type { AnalyticsData, AnalyticsPeriod } from './types';

/** One figure of the screen. Analytics failures are silent (spec): logged, and shown as zeros. */
async function figure<T>(path: string, period: AnalyticsPeriod, empty: T): Promise<T> {
  try {
    return await getJson<T>(`analytics/${path}`, { searchParams: { period, tz: userTimeZone() } });
  } catch (err) {
    console.error(`No se pudo cargar analytics/${path}`, err);
    return empty;
  }
}

/** The seven figures of a period, requested in parallel. */
export async function loadAnalytics(period: AnalyticsPeriod): Promise<AnalyticsData> {
  const [totals, activity, growth, emails, whatsapp, teams, productivity] = await Promise.all([
    figure<AnalyticsData['totals']>('dashboard', period, { totalContacts: 0, totalEvents: 0, totalEmails: 0, totalMessages: 0 }),
    figure<AnalyticsData['activity']>('activity', period, []),
    figure<AnalyticsData['growth']>('contacts-growth', period, []),
    figure<AnalyticsData['emails']>('emails', period, { sent: 0, received: 0, opened: 0, clicked: 0 }),
    figure<AnalyticsData['whatsapp']>('whatsapp', period, { sent: 0, received: 0, contacts: 0, autoReplies: 0 }),
    figure<AnalyticsData['teams']>('teams', period, { messages: 0 }),
    figure<AnalyticsData['productivity']>('productivity', period, []),
  ]);
  return { totals, activity, growth, emails, whatsapp, teams, productivity };
}
