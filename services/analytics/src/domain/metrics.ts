import type { DomainEvent } from '@asistente/contracts';

/** The counters the rollups keep; every figure of the API is a sum of these. */
export const METRIC = {
  activity: 'activity',
  contactsCreated: 'contacts.created',
  contactsUpdated: 'contacts.updated',
  contactsDeleted: 'contacts.deleted',
  /** Created minus deleted: its running sum is the number of contacts. */
  contactsNet: 'contacts.net',
  emailSent: 'email.sent',
  emailReceived: 'email.received',
  emailOpened: 'email.opened',
  emailClicked: 'email.clicked',
  whatsappSent: 'whatsapp.sent',
  whatsappReceived: 'whatsapp.received',
  whatsappAutoReplies: 'whatsapp.autoreplies',
  calendarEvents: 'calendar.events',
  meetings: 'meetings',
  teamsMessages: 'teams.messages',
  aiRuns: 'ai.runs',
  aiTokens: 'ai.tokens',
} as const;

export type Metric = (typeof METRIC)[keyof typeof METRIC];
export type Increment = [Metric, number];

/**
 * What one event adds to the counters. Incremental application and rebuild
 * both go through here, so they cannot disagree. Every event a person would
 * call "something happened" also counts once as activity.
 */
export function incrementsFor(event: DomainEvent): Increment[] {
  const activity: Increment = [METRIC.activity, 1];
  switch (event.type) {
    case 'auth.user.registered':
    case 'whatsapp.contacts.synced':
    case 'security.activity.recorded':
    case 'user.deleted':
    case 'account.erasure.progressed':
    case 'account.retention.changed':
    case 'workspace.member.left':
      return [];
    // The inbox's view of messages the channel's own events already count: no counter of their own here. They
    // are the team's figures instead, derived per conversation (conversation-follower.ts, GET /analytics/team).
    case 'conversation.message.received':
    case 'conversation.message.sent':
    case 'conversation.assigned':
    case 'conversation.status_changed':
      return [];
    // An import's contacts are counted by its batches' `contacts.contact.imported`, not one by one.
    case 'contacts.import.written':
      return [];
    case 'contacts.contact.created':
      return isImportedContact(event) ? [] : [activity, [METRIC.contactsCreated, 1], [METRIC.contactsNet, 1]];
    case 'contacts.contact.updated':
      return isImportedContact(event) ? [] : [activity, [METRIC.contactsUpdated, 1]];
    case 'contacts.contact.deleted':
      return [activity, [METRIC.contactsDeleted, 1], [METRIC.contactsNet, -1]];
    case 'contacts.contact.imported': {
      const { created, updated } = event.data;
      return [activity, [METRIC.contactsCreated, created], [METRIC.contactsNet, created], [METRIC.contactsUpdated, updated]];
    }
    case 'email.message.sent':
      return [activity, [METRIC.emailSent, 1]];
    case 'email.message.received':
      return [activity, [METRIC.emailReceived, 1]];
    case 'email.message.opened':
      return [[METRIC.emailOpened, 1]];
    case 'email.message.clicked':
      return [[METRIC.emailClicked, 1]];
    case 'whatsapp.message.sent':
      return [activity, [METRIC.whatsappSent, 1]];
    case 'whatsapp.message.received':
      return [activity, [METRIC.whatsappReceived, 1]];
    case 'whatsapp.autoreply.sent':
      return [[METRIC.whatsappAutoReplies, 1]];
    case 'calendar.event.created':
      return isMeetingEntry(event) ? [] : [activity, [METRIC.calendarEvents, 1]];
    case 'calendar.event.updated':
    case 'calendar.event.deleted':
      return [activity];
    case 'meet.meeting.created':
    case 'teams.meeting.created':
      return [activity, [METRIC.meetings, 1]];
    case 'teams.message.sent':
    case 'teams.message.received':
      return [activity, [METRIC.teamsMessages, 1]];
    case 'ai.run.completed':
      return [[METRIC.aiRuns, 1], [METRIC.aiTokens, event.data.totalTokens]];
  }
}

/**
 * The calendar entry a Meet or Teams meeting creates beside it: the meeting's own event counts it (as a
 * meeting, and once as activity), so one meeting is one "Evento" and one line of the feed. Teams entries
 * recorded before `meetingId` existed are known by their source: only a Teams meeting publishes 'msteams'.
 * The recent-activity query (RollupsRepository.recent) leaves out the same events.
 */
export function isMeetingEntry(event: DomainEvent): boolean {
  return event.type === 'calendar.event.created' && (event.data.meetingId !== undefined || event.data.source === 'msteams');
}

/**
 * A contact event an import wrote beside its batch's `contacts.contact.imported`, which counts it (imports
 * before `contacts.import.written` announced each contact so; such events may still be in the stream).
 */
export function isImportedContact(event: DomainEvent): boolean {
  return (event.type === 'contacts.contact.created' || event.type === 'contacts.contact.updated') && event.data.imported === true;
}

/** The conversation an event shows activity in, for "active WhatsApp contacts". */
export function whatsappChatOf(event: DomainEvent): string | undefined {
  return event.type === 'whatsapp.message.sent' || event.type === 'whatsapp.message.received' ? event.data.chatId : undefined;
}
