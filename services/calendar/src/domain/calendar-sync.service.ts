import { CoalescedRead, LruMap, type Logger, type Sql } from '@asistente/kit';
import type { MirrorFeed } from './calendars/mirror-feed.js';
import type { GoogleAccountsRepository } from './google-accounts.repository.js';
import type { GoogleConnectionService } from './google-connection.service.js';
import type { MirroredCalendar, MirrorRepository } from './mirror.repository.js';
import { calendarNotFound, notConfigured, notConnected, ProviderError, toAppError } from './provider-errors.js';

/** A view older than this asks Google for what changed before answering. */
export const FRESHNESS_MS = 60_000;
/** At most one extra calendar-list call per user in this long for ids the mirror does not know. */
const UNKNOWN_LOOKUP_MS = 15_000;
/** Users whose last unknown-calendar look is remembered at most. */
const UNKNOWN_LOOKUPS_REMEMBERED = 10_000;
/** How far back a full sync mirrors (recurring series are expanded from here on). */
const MIRROR_HISTORY_MS = 365 * 86_400_000;

/**
 * Keeps the local mirror of a user's Google calendars: the calendar list, and each calendar's events through
 * Google's incremental sync (nextSyncToken; a 410 means the token expired and everything is listed again).
 * Concurrent requests for the same refresh share one call to Google. A mirror older than a minute is
 * refreshed in the background while the view answers from it (a view never waits on Google unless the
 * mirror is empty or the screen forces a refresh).
 */
export class CalendarSyncService {
  private readonly runs = new CoalescedRead<void>();
  /** When each user last made us ask Google for an unknown calendar id (the recent users: bounded). */
  private readonly unknownLookups = new LruMap<number>(UNKNOWN_LOOKUPS_REMEMBERED);
  /** Every view starts with this read: concurrent views of one user share it. */
  /** Told of every calendar just synced (push channels are opened or renewed from here). */
  private synced: ((userId: string, calendarId: string) => void) | undefined;
  private readonly accountReads = new CoalescedRead<Awaited<ReturnType<MirrorRepository['accountCalendars']>>>();

  constructor(
    private readonly sql: Sql,
    private readonly connection: GoogleConnectionService,
    private readonly accounts: GoogleAccountsRepository,
    private readonly mirror: MirrorRepository,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's calendars, from Google when the mirrored list is stale or `force`. */
  async calendars(userId: string, force = false): Promise<MirroredCalendar[]> {
    if (!this.connection.configured) throw notConfigured();
    const mirrored = await this.accountReads.read(userId, () => this.mirror.accountCalendars(userId));
    if (!mirrored) throw notConnected();
    const { account, calendars } = mirrored;
    if (!force && !account.revokedAt && !this.stale(account.calendarsSyncedAt)) return calendars;
    // A forced pass ("Actualizar") needs a list read begun after it asked: a running one may predate the change.
    const listing = this.runs[force ? 'read' : 'share'](`list:${userId}`, async () => {
      const feed = await this.connection.feed(userId);
      const listed = await this.connection.guard(userId, () => feed.calendars()).catch((e: unknown) => {
        throw toAppError(e, calendarNotFound);
      });
      await this.mirror.replaceCalendars(userId, listed);
      await this.accounts.markCalendarsSynced(userId);
    });
    if (!force && !account.revokedAt && account.calendarsSyncedAt) {
      this.inBackground(listing, 'calendar list');
      return calendars;
    }
    await listing;
    return this.mirror.calendars(userId);
  }

  /** One calendar by id ('primary' names the primary one); 404 for a calendar the user does not have. */
  async calendar(userId: string, calendarId: string, force = false): Promise<MirroredCalendar> {
    const find = (list: MirroredCalendar[]) => list.find((c) => (calendarId === 'primary' ? c.primary : c.id === calendarId));
    const found = find(await this.calendars(userId, force));
    if (found) return found;
    // Maybe created in Google this minute: look once more before saying it does not exist, but not on every
    // request for an unknown id (each look is a call to Google).
    const lastLook = this.unknownLookups.get(userId) ?? 0;
    if (force || this.now() - lastLook < UNKNOWN_LOOKUP_MS) throw calendarNotFound();
    this.unknownLookups.set(userId, this.now());
    const calendar = find(await this.calendars(userId, true));
    if (!calendar) throw calendarNotFound();
    return calendar;
  }

  /**
   * Brings the calendar's mirrored events up to date: now with `force` or when never mirrored, in the
   * background when older than a minute. True when it waited on Google (the calendar's version read before
   * may then be out of date).
   */
  async refreshEvents(userId: string, calendar: MirroredCalendar, force = false): Promise<boolean> {
    if (!force && !this.stale(calendar.syncedAt)) return false;
    const refresh = this.runs.share(`events:${userId}:${calendar.id}`, async () => {
      const feed = await this.connection.feed(userId);
      await this.connection.guard(userId, () => this.sync(userId, calendar, feed)).catch((e: unknown) => {
        throw toAppError(e, calendarNotFound);
      });
    });
    if (!force && calendar.syncedAt) {
      this.inBackground(refresh, 'calendar events');
      return false;
    }
    await refresh;
    return true;
  }

  /** A refresh nobody waits for: its failure (a revoked grant is already marked by the guard) is only logged. */
  private inBackground(work: Promise<void>, what: string): void {
    work.catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : error }, `background ${what} refresh failed`));
  }

  onSynced(listener: (userId: string, calendarId: string) => void): void {
    this.synced = listener;
  }

  private async sync(userId: string, calendar: MirroredCalendar, feed: MirrorFeed): Promise<void> {
    const since = new Date(this.now() - MIRROR_HISTORY_MS);
    let changes;
    try {
      changes = await feed.changes(calendar.id, calendar.syncToken, since);
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === 'sync_expired' && calendar.syncToken)) throw error;
      changes = await feed.changes(calendar.id, null, since);
    }
    await this.sql.begin(async (tx) => {
      if (changes.full) await this.mirror.clearEvents(tx, userId, calendar.id);
      else await this.mirror.deleteEvents(tx, userId, calendar.id, changes.removals);
      await this.mirror.upsertEvents(tx, userId, changes.upserts);
      await this.mirror.markSynced(tx, userId, calendar.id, changes.nextSyncToken);
    });
    this.synced?.(userId, calendar.id);
  }

  private stale(syncedAt: Date | null): boolean {
    return !syncedAt || this.now() - syncedAt.getTime() > FRESHNESS_MS;
  }
}
