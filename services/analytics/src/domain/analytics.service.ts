import type {
  ActivityPoint,
  AnalyticsDashboard,
  ContactsGrowthPoint,
  EmailStats,
  ProductivityPoint,
  RecentActivity,
  TeamsStats,
  WhatsappStats,
} from '@asistente/contracts';
import { dayWindow, type Period } from './period.js';
import { METRIC } from './metrics.js';
import type { RollupsRepository } from './rollups.repository.js';

export interface Scope {
  userId: string;
  period: Period;
  tz: string;
}

const WEEKDAYS = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'] as const;

/** Every figure is read from the rollups; none scans the event history. */
export class AnalyticsService {
  constructor(private readonly rollups: RollupsRepository) {}

  async dashboard({ userId, period, tz }: Scope): Promise<AnalyticsDashboard> {
    const w = dayWindow(period, tz);
    const [totalContacts, sums] = await Promise.all([
      this.rollups.allTime(userId, METRIC.contactsNet),
      this.rollups.sums(
        userId,
        [METRIC.calendarEvents, METRIC.meetings, METRIC.emailSent, METRIC.emailReceived, METRIC.whatsappSent, METRIC.whatsappReceived, METRIC.teamsMessages],
        w,
      ),
    ]);
    const s = (metric: string) => sums.get(metric) ?? 0;
    return {
      totalContacts,
      totalEvents: s(METRIC.calendarEvents) + s(METRIC.meetings),
      totalEmails: s(METRIC.emailSent) + s(METRIC.emailReceived),
      totalMessages: s(METRIC.whatsappSent) + s(METRIC.whatsappReceived) + s(METRIC.teamsMessages),
    };
  }

  async activity({ userId, period, tz }: Scope): Promise<ActivityPoint[]> {
    const days = await this.rollups.daily(userId, METRIC.activity, dayWindow(period, tz));
    return days.map((d) => ({ date: d.date, activity: d.value }));
  }

  async contactsGrowth({ userId, period, tz }: Scope): Promise<ContactsGrowthPoint[]> {
    const days = await this.rollups.cumulativeDaily(userId, METRIC.contactsNet, dayWindow(period, tz));
    return days.map((d) => ({ date: d.date, contacts: d.value }));
  }

  async emails({ userId, period, tz }: Scope): Promise<EmailStats> {
    const sums = await this.rollups.sums(userId, [METRIC.emailSent, METRIC.emailReceived, METRIC.emailOpened, METRIC.emailClicked], dayWindow(period, tz));
    return {
      sent: sums.get(METRIC.emailSent) ?? 0,
      received: sums.get(METRIC.emailReceived) ?? 0,
      opened: sums.get(METRIC.emailOpened) ?? 0,
      clicked: sums.get(METRIC.emailClicked) ?? 0,
    };
  }

  async whatsapp({ userId, period, tz }: Scope): Promise<WhatsappStats> {
    const w = dayWindow(period, tz);
    const [sums, contacts] = await Promise.all([
      this.rollups.sums(userId, [METRIC.whatsappSent, METRIC.whatsappReceived, METRIC.whatsappAutoReplies], w),
      this.rollups.activeChats(userId, w),
    ]);
    return {
      sent: sums.get(METRIC.whatsappSent) ?? 0,
      received: sums.get(METRIC.whatsappReceived) ?? 0,
      contacts,
      autoReplies: sums.get(METRIC.whatsappAutoReplies) ?? 0,
    };
  }

  async teams({ userId, period, tz }: Scope): Promise<TeamsStats> {
    const sums = await this.rollups.sums(userId, [METRIC.teamsMessages], dayWindow(period, tz));
    return { messages: sums.get(METRIC.teamsMessages) ?? 0 };
  }

  /** Monday first, as Spanish calendars are. */
  async productivity({ userId, period, tz }: Scope): Promise<ProductivityPoint[]> {
    const rows = await this.rollups.byWeekday(
      userId,
      [METRIC.emailSent, METRIC.emailReceived, METRIC.whatsappSent, METRIC.whatsappReceived, METRIC.teamsMessages, METRIC.calendarEvents, METRIC.meetings, METRIC.contactsCreated],
      dayWindow(period, tz),
    );
    const points: ProductivityPoint[] = WEEKDAYS.map((day) => ({ day, emails: 0, messages: 0, meetings: 0, contacts: 0 }));
    const series: Record<string, keyof Omit<ProductivityPoint, 'day'>> = {
      [METRIC.emailSent]: 'emails',
      [METRIC.emailReceived]: 'emails',
      [METRIC.whatsappSent]: 'messages',
      [METRIC.whatsappReceived]: 'messages',
      [METRIC.teamsMessages]: 'messages',
      [METRIC.calendarEvents]: 'meetings',
      [METRIC.meetings]: 'meetings',
      [METRIC.contactsCreated]: 'contacts',
    };
    for (const row of rows) {
      const point = points[row.isoDow - 1];
      const key = series[row.metric];
      if (point && key) point[key] += row.value;
    }
    return points;
  }

  async recent(userId: string, limit: number): Promise<RecentActivity> {
    const rows = await this.rollups.recent(userId, limit);
    return { items: rows.map((r) => ({ id: r.id, type: r.type, occurredAt: r.occurredAt.toISOString(), data: r.data as Record<string, unknown> })) };
  }
}
