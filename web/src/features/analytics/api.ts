import type { InboxMemberList } from '@asistente/contracts';
import { getJson } from '../../lib/http';
import { userTimeZone } from '../../lib/time-zone';
import type { AnalyticsData, AnalyticsPeriod, InboxMember } from './types';

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

/**
 * The team's names, from the inbox. Only names: when the inbox cannot answer, the team's figures still show
 * (unnamed) and the rest of the screen is untouched.
 */
async function inboxMembers(): Promise<InboxMember[] | null> {
  try {
    return (await getJson<InboxMemberList>('conversations/members')).data;
  } catch (err) {
    console.error('No se pudieron cargar los miembros del equipo', err);
    return null;
  }
}

/** The eight figures of a period and the team's names, requested in parallel. */
export async function loadAnalytics(period: AnalyticsPeriod): Promise<AnalyticsData> {
  const [totals, activity, growth, emails, whatsapp, teams, productivity, team, members] = await Promise.all([
    figure<AnalyticsData['totals']>('dashboard', period),
    figure<AnalyticsData['activity']>('activity', period),
    figure<AnalyticsData['growth']>('contacts-growth', period),
    figure<AnalyticsData['emails']>('emails', period),
    figure<AnalyticsData['whatsapp']>('whatsapp', period),
    figure<AnalyticsData['teams']>('teams', period),
    figure<AnalyticsData['productivity']>('productivity', period),
    figure<AnalyticsData['team']>('team', period),
    inboxMembers(),
  ]);
  return { period, totals, activity, growth, emails, whatsapp, teams, productivity, team, members };
}
