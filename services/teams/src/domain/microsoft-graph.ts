// The Microsoft ports: the identity platform's authorization-code flow and the part of Microsoft Graph the
// product uses, declared in the domain's own shapes (the fields read of each Graph resource). The SDK
// implementations are adapters/microsoft-identity.ts and adapters/microsoft-graph.ts; app.ts wires them.

import type { OAuthStrategy } from '@asistente/kit';

/** Where a Graph client gets its bearer token; `renew` forces a refresh after Graph refused the current one. */
export interface AccessTokens {
  current(): Promise<string>;
  renew(): Promise<string>;
}

export interface TokenSet {
  accessToken: string;
  /** Microsoft rotates refresh tokens: a refresh may answer a new one, or none (keep the old). */
  refreshToken: string | null;
  expiresAt: Date;
  scopes: string;
}

/**
 * The identity platform's side of the kit's OAuth flow (OAuthClient runs the sequence). No `revoke`: Microsoft
 * offers no revocation endpoint for these tokens, so disconnecting erases them.
 */
export interface MicrosoftIdentity extends OAuthStrategy<TokenSet> {
  refresh(refreshToken: string): Promise<TokenSet>;
}

/**
 * A Graph request answered with an HTTP error (or failed inside the client: `code` 'AppError' carries one of
 * our own errors by its message). Every other failure is the network's.
 */
export class GraphRequestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string | null | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'GraphRequestError';
  }
}

type Maybe<T> = T | null | undefined;

export interface DateTimeZone {
  dateTime?: Maybe<string>;
  timeZone?: Maybe<string>;
}

export interface GraphUser {
  id?: Maybe<string>;
  displayName?: Maybe<string>;
  mail?: Maybe<string>;
  userPrincipalName?: Maybe<string>;
}

export interface GraphTeam {
  id?: Maybe<string>;
  displayName?: Maybe<string>;
}

export interface GraphChannel {
  id?: Maybe<string>;
  displayName?: Maybe<string>;
  membershipType?: Maybe<string>;
}

export interface GraphChatMessage {
  id?: Maybe<string>;
  messageType?: string;
  deletedDateTime?: Maybe<string>;
  createdDateTime?: Maybe<string>;
  body?: Maybe<{ content?: Maybe<string>; contentType?: Maybe<string> }>;
  from?: Maybe<{ user?: Maybe<{ id?: Maybe<string>; displayName?: Maybe<string> }>; application?: Maybe<{ displayName?: Maybe<string> }> }>;
}

export interface GraphCalendar {
  id?: Maybe<string>;
  name?: Maybe<string>;
  hexColor?: Maybe<string>;
  color?: Maybe<string>;
}

export interface GraphEvent {
  id?: Maybe<string>;
  subject?: Maybe<string>;
  bodyPreview?: Maybe<string>;
  start?: Maybe<DateTimeZone>;
  end?: Maybe<DateTimeZone>;
  isAllDay?: Maybe<boolean>;
  isCancelled?: Maybe<boolean>;
  isOnlineMeeting?: Maybe<boolean>;
  location?: Maybe<{ displayName?: Maybe<string> }>;
  attendees?: Maybe<{ emailAddress?: Maybe<{ address?: Maybe<string>; name?: Maybe<string> }> }[]>;
  onlineMeeting?: Maybe<{ joinUrl?: Maybe<string> }>;
  onlineMeetingUrl?: Maybe<string>;
  type?: Maybe<string>;
  recurrence?: Maybe<{ pattern?: Maybe<{ type?: Maybe<string> }> }>;
  createdDateTime?: Maybe<string>;
  lastModifiedDateTime?: Maybe<string>;
}

export interface NewOnlineMeeting {
  title: string;
  startTime: Date;
  endTime: Date;
  attendees: string[];
  description?: string | undefined;
}

/** An Outlook event to write: instants (an all-day event's from midnight to the next day's midnight, UTC). */
export interface CalendarEventWrite {
  title: string;
  start: Date;
  end: Date;
  allDay: boolean;
  /** Left as it is on an update when absent. */
  description?: string;
  location?: string;
}

/** The Graph calls of one connected user. Collections come whole (every page), up to `max` where given. */
export interface MicrosoftGraph {
  me(): Promise<GraphUser>;
  joinedTeams(): Promise<GraphTeam[]>;
  teamMemberCount(teamId: string): Promise<number>;
  channels(teamId: string): Promise<GraphChannel[]>;
  channelMemberCount(teamId: string, channelId: string): Promise<number>;
  /** The newest `max` root messages of a channel. */
  channelMessages(teamId: string, channelId: string, max: number): Promise<GraphChatMessage[]>;
  postChannelMessage(teamId: string, channelId: string, text: string): Promise<GraphChatMessage>;
  calendars(): Promise<GraphCalendar[]>;
  /** The default calendar (where Outlook puts invitations). */
  defaultCalendar(): Promise<GraphCalendar>;
  /** Occurrences in [from, to) of one calendar, or of the default calendar when `calendarId` is 'primary'. */
  calendarView(calendarId: string, from: Date, to: Date): Promise<GraphEvent[]>;
  /** Writes to one calendar ('primary': the default one); an event not in that calendar is Graph's 404. */
  createCalendarEvent(calendarId: string, event: CalendarEventWrite): Promise<GraphEvent>;
  updateCalendarEvent(calendarId: string, eventId: string, event: CalendarEventWrite): Promise<GraphEvent>;
  deleteCalendarEvent(calendarId: string, eventId: string): Promise<void>;
  /** Teams online meetings of the default calendar overlapping [from, to), earliest first. */
  onlineMeetings(from: Date, to: Date): Promise<GraphEvent[]>;
  createOnlineMeeting(meeting: NewOnlineMeeting): Promise<GraphEvent>;
}

/** The identity flow and a Graph per set of tokens, present when Microsoft is configured. */
export interface MicrosoftClients {
  identity: MicrosoftIdentity;
  graph(tokens: AccessTokens): MicrosoftGraph;
}
