import type { AnalyticsDashboard } from '@asistente/contracts';
import { useLiveData, type LiveData } from '../../lib/live-data';
import { fromContacts, fromEvents, type ActivityItem } from './activity';
import { getContactTotal, getDashboardTotals, getRecentContacts, getRecentEvents } from './api';

export interface DashboardData {
  totals: AnalyticsDashboard | null;
  contactTotal: number | null;
  activity: ActivityItem[];
}

async function loadDashboard(): Promise<DashboardData> {
  const [totals, contactTotal, events, contacts] = await Promise.all([
    getDashboardTotals(),
    getContactTotal(),
    getRecentEvents(),
    getRecentContacts(),
  ]);
  const activity = events ? fromEvents(events, contacts ?? []) : fromContacts(contacts ?? []);
  return { totals, contactTotal, activity };
}

/** The dashboard's figures, kept current by the live stream while the screen is open (stale while offline). */
export function useDashboard(): LiveData<DashboardData> {
  return useLiveData(loadDashboard, 'dashboard');
}
