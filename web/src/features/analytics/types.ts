import type {
  ActivityPoint,
  AnalyticsDashboard,
  AnalyticsPeriod,
  ContactsGrowthPoint,
  EmailStats,
  InboxMemberList,
  ProductivityPoint,
  TeamFigures,
  TeamsStats,
  WhatsappStats,
} from '@asistente/contracts';

export type { ActivityPoint, AnalyticsPeriod, ContactsGrowthPoint, EmailStats, ProductivityPoint, TeamFigures, WhatsappStats };

/** A member as GET /api/conversations/members lists them. */
export type InboxMember = InboxMemberList['data'][number];

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
  /** The team inbox's figures per member (medians in seconds). */
  team: TeamFigures;
  /** Who the team's ids are (the inbox's members); null when they could not be asked. */
  members: InboxMember[] | null;
}

export const PERIODS: readonly { value: AnalyticsPeriod; label: string }[] = [
  { value: '7d', label: '7 días' },
  { value: '30d', label: '30 días' },
  { value: '90d', label: '90 días' },
  { value: '1y', label: '1 año' },
];

export const DEFAULT_PERIOD: AnalyticsPeriod = '30d';
