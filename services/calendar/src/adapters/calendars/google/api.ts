import type { calendar_v3 } from '@googleapis/calendar';
import type { CalendarRecord, EventInput, EventRecord } from '../../../domain/event-record.js';
import { withBackoff, type BackoffOptions } from './backoff.js';
import type { ChannelRequest, EventChanges, MirrorFeed } from '../../../domain/calendars/mirror-feed.js';
import { ProviderError } from '../../../domain/provider-errors.js';
import { isRateLimited, toProviderError } from './errors.js';
import { fromGoogleCalendar, fromGoogleEvent, toGoogleResource } from './resources.js';

const PAGE_SIZE = 2500;
/** A runaway pagination (a peer that never stops) ends here rather than filling the mirror forever. */
const MAX_PAGES = 200;

export interface WriteOptions {
  /** Attach a new video conference (Google Meet) to the event. */
  conference?: boolean;
  /** Email the attendees an invitation (or an update). */
  notifyAttendees?: boolean;
}

/**
 * Google Calendar v3 through the official client, for one connected account: the feed the domain's mirror reads,
 * and the writes of Google's adapter (calendar.ts, writes.ts, the Google Meet provider).
 */
export class GoogleCalendar implements MirrorFeed {
  constructor(
    private readonly api: calendar_v3.Calendar,
    private readonly tokenUrl: string,
    private readonly backoff: BackoffOptions,
  ) {}

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await withBackoff(fn, isRateLimited, this.backoff);
    } catch (error) {
      throw toProviderError(error, this.tokenUrl);
    }
  }

  async calendars(): Promise<CalendarRecord[]> {
    const calendars: CalendarRecord[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const { data } = await this.call(() => this.api.calendarList.list({ maxResults: 250, ...(pageToken ? { pageToken } : {}) }));
      for (const entry of data.items ?? []) {
        const calendar = fromGoogleCalendar(entry);
        if (calendar) calendars.push(calendar);
      }
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) break;
    }
    return calendars;
  }

  async changes(calendarId: string, syncToken: string | null, since: Date): Promise<EventChanges> {
    const changes: EventChanges = { full: syncToken === null, upserts: [], removals: [], nextSyncToken: null };
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      // singleEvents: recurring series arrive as their instances, which is what a month view shows.
      const params: calendar_v3.Params$Resource$Events$List = {
        calendarId,
        singleEvents: true,
        maxResults: PAGE_SIZE,
        ...(syncToken ? { syncToken } : { timeMin: since.toISOString() }),
        ...(pageToken ? { pageToken } : {}),
      };
      const { data } = await this.call(() => this.api.events.list(params));
      for (const item of data.items ?? []) {
        if (item.status === 'cancelled') {
          if (item.id) changes.removals.push(item.id);
          continue;
        }
        const record = fromGoogleEvent(calendarId, item);
        if (record) changes.upserts.push(record);
      }
      pageToken = data.nextPageToken ?? undefined;
      if (!pageToken) {
        changes.nextSyncToken = data.nextSyncToken ?? null;
        break;
      }
    }
    return changes;
  }

  async createEvent(calendarId: string, input: EventInput, options: WriteOptions = {}): Promise<EventRecord> {
    const { data } = await this.call(() =>
      this.api.events.insert({
        calendarId,
        requestBody: toGoogleResource(input, options.conference === true),
        sendUpdates: options.notifyAttendees ? 'all' : 'none',
        ...(options.conference ? { conferenceDataVersion: 1 } : {}),
      }),
    );
    return this.record(calendarId, data);
  }

  async updateEvent(calendarId: string, eventId: string, input: Partial<EventInput>, options: WriteOptions = {}): Promise<EventRecord> {
    const { data } = await this.call(() =>
      this.api.events.patch({
        calendarId,
        eventId,
        requestBody: toGoogleResource(input, false),
        sendUpdates: options.notifyAttendees ? 'all' : 'none',
      }),
    );
    return this.record(calendarId, data);
  }

  async deleteEvent(calendarId: string, eventId: string, options: WriteOptions = {}): Promise<void> {
    try {
      await this.call(() => this.api.events.delete({ calendarId, eventId, sendUpdates: options.notifyAttendees ? 'all' : 'none' }));
    } catch (error) {
      // 410 Gone: already deleted in Google; the state the user asked for holds.
      if (error instanceof ProviderError && error.kind === 'sync_expired') return;
      throw error;
    }
  }

  async watch(calendarId: string, channel: ChannelRequest): Promise<{ resourceId: string; expiresAt: Date }> {
    const { data } = await this.call(() =>
      this.api.events.watch({
        calendarId,
        requestBody: { id: channel.id, type: 'web_hook', address: channel.address, token: channel.token, params: { ttl: String(channel.ttlSeconds) } },
      }),
    );
    const expiration = Number(data.expiration);
    if (!data.resourceId || !Number.isFinite(expiration)) throw new ProviderError('unavailable', 'Google answered a channel without resourceId or expiration');
    return { resourceId: data.resourceId, expiresAt: new Date(expiration) };
  }

  async stopWatching(id: string, resourceId: string): Promise<void> {
    try {
      await this.call(() => this.api.channels.stop({ requestBody: { id, resourceId } }));
    } catch (error) {
      // Already expired or stopped: the state asked for holds.
      if (error instanceof ProviderError && error.kind === 'not_found') return;
      throw error;
    }
  }

  private record(calendarId: string, data: calendar_v3.Schema$Event): EventRecord {
    const record = fromGoogleEvent(calendarId, data);
    if (!record) throw new ProviderError('unavailable', 'Google answered an event without id or start');
    return record;
  }
}
