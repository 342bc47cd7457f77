import type {
  ActivityPoint,
  AnalyticsDashboard,
  AnalyticsPeriod,
  ContactsGrowthPoint,
  EmailStats,
  ProductivityPoint,
  TeamsStats,
  WhatsappStats,
} from '@asistente/contracts';

export type { ActivityPoint, AnalyticsPeriod, ContactsGrowthPoint, EmailStats, ProductivityPoint, WhatsappStats };

/** Everything the screen shows, for one period. */
export interface AnalyticsData {
  period: AnalyticsPeriod;
  totals: AnalyticsDashboard;
  activity: ActivityPoint[];
  growth: ContactsGrowthPoint[];
  emails: EmailStats;
  whatsapp: WhatsappStats;
  teams: TeamsStats;
  productivity: ProductivityPoint[];
}

export const PERIODS: readonly { value: AnalyticsPeriod; label: string }[] = [
  { value: '7d', label: '7 días' },
  { value: '30d', label: '30 días' },
  { value: '90d', label: '90 días' },
  { value: '1y', label: '1 año' },
];

export const DEFAULT_PERIOD: AnalyticsPeriod = '30d';
