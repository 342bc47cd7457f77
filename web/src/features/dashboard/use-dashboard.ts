import type { AnalyticsDashboard } from '@asistente/contracts';
import { useEffect, useState } from 'react';
import { fromContacts, fromEvents, type ActivityItem } from './activity';
import { getContactTotal, getDashboardTotals, getRecentContacts, getRecentEvents } from './api';

export interface DashboardData {
  totals: AnalyticsDashboard | null;
  contactTotal: number | null;
  activity: ActivityItem[];
}

export function useDashboard(): DashboardData | null {
  const [data, setData] = useState<DashboardData | null>(null);
  useEffect(() => {
    let current = true;
    Promise.all([getDashboardTotals(), getContactTotal(), getRecentEvents(), getRecentContacts()]).then(
      ([totals, contactTotal, events, contacts]) => {
        const activity = events ? fromEvents(events, contacts ?? []) : fromContacts(contacts ?? []);
        if (current) setData({ totals, contactTotal, activity });
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return data;
}
