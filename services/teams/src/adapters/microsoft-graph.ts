import { GraphError, type Client } from '@microsoft/microsoft-graph-client';
import type * as Graph from '@microsoft/microsoft-graph-types';
import { GraphRequestError, type CalendarEventWrite, type MicrosoftGraph, type NewOnlineMeeting } from '../domain/microsoft-graph.js';

/** One page of a Graph collection. */
interface Page<T> {
  value?: T[];
  '@odata.nextLink'?: string;
}

/** Event times in UTC, whatever the mailbox's time zone. */
const UTC = { Prefer: 'outlook.timezone="UTC"' };

const segment = (id: string) => encodeURIComponent(id);

/** The SDK's error, as the domain reads it; anything else (network, timeout) passes unchanged. */
async function request<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GraphError) throw new GraphRequestError(error.statusCode, error.code, error.message);
    throw error;
  }
}

/** One calendar's root: the default one is /me/calendar, as in calendarView. */
const calendarRoot = (calendarId: string) => (calendarId === 'primary' ? '/me/calendar' : `/me/calendars/${segment(calendarId)}`);

/** Graph's dateTimeTimeZone of an instant in UTC (an all-day event's midnight with no time part beyond it). */
const utcTime = (at: Date) => ({ dateTime: at.toISOString().slice(0, 23), timeZone: 'UTC' });

/** Graph's event resource for a write: the body and location only when given (an update leaves them otherwise). */
function graphEvent(event: CalendarEventWrite): Graph.Event {
  return {
    subject: event.title,
    start: utcTime(event.start),
    end: utcTime(event.end),
    isAllDay: event.allDay,
    ...(event.description !== undefined ? { body: { contentType: 'text', content: event.description } } : {}),
    ...(event.location !== undefined ? { location: { displayName: event.location } } : {}),
  };
}

/** Graph's start dateTime (UTC, as we ask for it), for ordering. */
const startOf = (event: Graph.Event) => event.start?.dateTime ?? '';

/**
 * The Microsoft Graph subset this product uses, over the real SDK client. Collections follow
 * `@odata.nextLink` until done (or until `max` items), so no caller ever sees only Graph's first page.
 */
export class MicrosoftGraphClient implements MicrosoftGraph {
  constructor(
    private readonly client: Client,
    /** Graph root with version: next links under it are followed as relative paths (any scheme). */
    private readonly graphUrl: string,
  ) {}

  me(): Promise<Graph.User> {
    return request(() => this.client.api('/me').select(['id', 'displayName', 'mail', 'userPrincipalName']).get() as Promise<Graph.User>);
  }

  joinedTeams(): Promise<Graph.Team[]> {
    return this.all<Graph.Team>('/me/joinedTeams');
  }

  async teamMemberCount(teamId: string): Promise<number> {
    return (await this.all<Graph.ConversationMember>(`/teams/${segment(teamId)}/members`)).length;
  }

  channels(teamId: string): Promise<Graph.Channel[]> {
    return this.all<Graph.Channel>(`/teams/${segment(teamId)}/channels`);
  }

  async channelMemberCount(teamId: string, channelId: string): Promise<number> {
    return (await this.all<Graph.ConversationMember>(`/teams/${segment(teamId)}/channels/${segment(channelId)}/members`)).length;
  }

  /** The newest `max` root messages of a channel (Graph answers newest first, at most 50 a page). */
  channelMessages(teamId: string, channelId: string, max: number): Promise<Graph.ChatMessage[]> {
    const path = `/teams/${segment(teamId)}/channels/${segment(channelId)}/messages?$top=${Math.min(max, 50)}`;
    return this.all<Graph.ChatMessage>(path, max);
  }

  postChannelMessage(teamId: string, channelId: string, text: string): Promise<Graph.ChatMessage> {
    return request(
      () =>
        this.client
          .api(`/teams/${segment(teamId)}/channels/${segment(channelId)}/messages`)
          .post({ body: { contentType: 'text', content: text } }) as Promise<Graph.ChatMessage>,
    );
  }

  calendars(): Promise<Graph.Calendar[]> {
    return this.all<Graph.Calendar>('/me/calendars');
  }

  defaultCalendar(): Promise<Graph.Calendar> {
    return request(() => this.client.api('/me/calendar').select(['id', 'name']).get() as Promise<Graph.Calendar>);
  }

  /** Occurrences in [from, to) of one calendar, or of the default calendar when `calendarId` is 'primary'. */
  calendarView(calendarId: string, from: Date, to: Date): Promise<Graph.Event[]> {
    const base = calendarId === 'primary' ? '/me/calendar' : `/me/calendars/${segment(calendarId)}`;
    const query = new URLSearchParams({ startDateTime: from.toISOString(), endDateTime: to.toISOString(), $top: '100' });
    return this.all<Graph.Event>(`${base}/calendarView?${query.toString()}`, Number.POSITIVE_INFINITY, UTC);
  }

  /**
   * Teams online meetings of the default calendar overlapping [from, to), earliest first. Graph refuses
   * `$filter=isOnlineMeeting eq true` (400 ErrorInvalidProperty), and /me/events lists series masters, not
   * occurrences: the calendar view of the window, filtered here, is what shows a weekly meeting each week.
   */
  async onlineMeetings(from: Date, to: Date): Promise<Graph.Event[]> {
    const events = await this.calendarView('primary', from, to);
    return events.filter((e) => e.isOnlineMeeting === true && !e.isCancelled).sort((a, b) => startOf(a).localeCompare(startOf(b)));
  }

  createOnlineMeeting(meeting: NewOnlineMeeting): Promise<Graph.Event> {
    const event: Graph.Event = {
      subject: meeting.title,
      body: { contentType: 'text', content: meeting.description ?? '' },
      start: { dateTime: meeting.startTime.toISOString().slice(0, 23), timeZone: 'UTC' },
      end: { dateTime: meeting.endTime.toISOString().slice(0, 23), timeZone: 'UTC' },
      attendees: meeting.attendees.map((address) => ({ emailAddress: { address }, type: 'required' })),
      isOnlineMeeting: true,
      onlineMeetingProvider: 'teamsForBusiness',
    };
    return request(() => this.client.api('/me/events').headers(UTC).post(event) as Promise<Graph.Event>);
  }

  createCalendarEvent(calendarId: string, event: CalendarEventWrite): Promise<Graph.Event> {
    return request(() => this.client.api(`${calendarRoot(calendarId)}/events`).headers(UTC).post(graphEvent(event)) as Promise<Graph.Event>);
  }

  updateCalendarEvent(calendarId: string, eventId: string, event: CalendarEventWrite): Promise<Graph.Event> {
    return request(
      () => this.client.api(`${calendarRoot(calendarId)}/events/${segment(eventId)}`).headers(UTC).patch(graphEvent(event)) as Promise<Graph.Event>,
    );
  }

  async deleteCalendarEvent(calendarId: string, eventId: string): Promise<void> {
    await request(() => this.client.api(`${calendarRoot(calendarId)}/events/${segment(eventId)}`).delete() as Promise<unknown>);
  }

  private async all<T>(path: string, max = Number.POSITIVE_INFINITY, headers: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    while (next !== undefined && items.length < max) {
      const path: string = next;
      const page = await request(() => this.client.api(path).headers(headers).get() as Promise<Page<T>>);
      items.push(...(page.value ?? []));
      const link = page['@odata.nextLink'];
      next = link?.startsWith(`${this.graphUrl}/`) ? link.slice(this.graphUrl.length) : link;
    }
    return items.slice(0, max);
  }
}
