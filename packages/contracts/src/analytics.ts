import { Type, type Static } from '@sinclair/typebox';

export const ANALYTICS_PERIODS = ['7d', '30d', '90d', '1y'] as const;

export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** `tz` is an IANA time zone: days are the user's calendar days there (default Europe/Madrid). */
export const analyticsQuery = (defaultPeriod: AnalyticsPeriod) =>
  Type.Object({
    period: Type.Unsafe<AnalyticsPeriod>({
      type: 'string',
      enum: [...ANALYTICS_PERIODS],
      default: defaultPeriod,
      messages: { enum: 'El periodo debe ser 7d, 30d, 90d o 1y' },
    }),
    tz: Type.String({ minLength: 1, maxLength: 64, default: 'Europe/Madrid' }),
  });

export const AnalyticsDashboard = Type.Object({
  totalContacts: Type.Integer(),
  totalEvents: Type.Integer(),
  totalEmails: Type.Integer(),
  totalMessages: Type.Integer(),
});
export type AnalyticsDashboard = Static<typeof AnalyticsDashboard>;

export const ActivityPoint = Type.Object({ date: Type.String(), activity: Type.Integer() });
export type ActivityPoint = Static<typeof ActivityPoint>;

export const ContactsGrowthPoint = Type.Object({ date: Type.String(), contacts: Type.Integer() });
export type ContactsGrowthPoint = Static<typeof ContactsGrowthPoint>;

export const EmailStats = Type.Object({
  sent: Type.Integer(),
  received: Type.Integer(),
  opened: Type.Integer(),
  clicked: Type.Integer(),
});
export type EmailStats = Static<typeof EmailStats>;

export const WhatsappStats = Type.Object({
  sent: Type.Integer(),
  received: Type.Integer(),
  contacts: Type.Integer(),
  autoReplies: Type.Integer(),
});
export type WhatsappStats = Static<typeof WhatsappStats>;

export const TeamsStats = Type.Object({ messages: Type.Integer() });
export type TeamsStats = Static<typeof TeamsStats>;

export const ProductivityPoint = Type.Object({
  day: Type.String(),
  emails: Type.Integer(),
  messages: Type.Integer(),
  meetings: Type.Integer(),
  contacts: Type.Integer(),
});
export type ProductivityPoint = Static<typeof ProductivityPoint>;

export const RecentActivity = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      occurredAt: Type.String(),
      data: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});
export type RecentActivity = Static<typeof RecentActivity>;

export const RecentQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) });
