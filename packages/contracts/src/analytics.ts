import { Type, type Static } from '@sinclair/typebox';
import { ConversationChannel } from './conversations.js';

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

/** A median in whole seconds over the period; null when the period has none. */
const MedianSeconds = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

/**
 * One member's work in the team inbox over the period (GET /analytics/team). A conversation "opens" at its
 * customer's first message and again each time a customer's message reopens it, until it is resolved.
 * `firstResponseSeconds`: median time from an opening to its first answer, over the openings this member gave
 * the first answer of. `resolutionSeconds`: median time from an opening to resolved, over the openings resolved
 * as theirs (assigned to them when resolved; unassigned, resolved by them). `handled`: the conversations they
 * answered at least once in the period. Answers count on the day they were given, resolutions on theirs.
 */
export const TeamMemberFigures = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  firstResponseSeconds: MedianSeconds,
  resolutionSeconds: MedianSeconds,
  handled: Type.Integer({ minimum: 0 }),
});
export type TeamMemberFigures = Static<typeof TeamMemberFigures>;

/** One channel's share of the period: live customer messages in, messages out, and the median first response. */
export const ChannelFigures = Type.Object({
  channel: ConversationChannel,
  received: Type.Integer({ minimum: 0 }),
  sent: Type.Integer({ minimum: 0 }),
  firstResponseSeconds: MedianSeconds,
});
export type ChannelFigures = Static<typeof ChannelFigures>;

export const TeamFigures = Type.Object({
  /** Members with any figure in the period, most conversations handled first; those without are left out. */
  members: Type.Array(TeamMemberFigures),
  /** The assistant and the keyword rules together: the openings they answered first, the conversations they answered. */
  assistant: Type.Object({ firstResponseSeconds: MedianSeconds, handled: Type.Integer({ minimum: 0 }) }),
  /**
   * The whole workspace: first answers by anyone (members, the assistant, the keyword rules, the phone), every
   * resolution, and the conversations a member or the assistant answered (each once, however many answered it).
   */
  workspace: Type.Object({ firstResponseSeconds: MedianSeconds, resolutionSeconds: MedianSeconds, handled: Type.Integer({ minimum: 0 }) }),
  /** Every channel, in the catalogue's order, those without messages too. */
  channels: Type.Array(ChannelFigures),
});
export type TeamFigures = Static<typeof TeamFigures>;
