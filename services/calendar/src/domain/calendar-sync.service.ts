import type { Sql } from '@asistente/kit';
import { ProviderError, type CalendarProvider } from '../adapters/calendar-provider.js';
import type { GoogleAccountsRepository } from './google-accounts.repository.js';
import type { GoogleConnectionService } from './google-connection.service.js';
import type { MirroredCalendar, MirrorRepository } from './mirror.repository.js';
import { calendarNotFound, notConfigured, notConnected, toAppError } from './provider-errors.js';

/** A view older than this asks Google for what changed before answering. */
export const FRESHNESS_MS = 60_000;
/** At most one extra calendar-list call per user in this long for ids the mirror does not know. */
const UNKNOWN_LOOKUP_MS = 15_000;
/** How far back a full sync mirrors (recurring series are expanded from here on). */
const MIRROR_HISTORY_MS = 365 * 86_400_000;

/**
 * Keeps the local mirror of a user's Google calendars: the calendar list, and each calendar's events through
 * Google's incremental sync (nextSyncToken; a 410 means the token expired and everything is listed again).
 * Concurrent requests for the same refresh share one call to Google.
 */
export class CalendarSyncService {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** When each user last made us ask Google for an unknown calendar id. */
  private readonly unknownLookups = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    private readonly connection: GoogleConnectionService,
    private readonly accounts: GoogleAccountsRepository,
    private readonly mirror: MirrorRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's calendars, from Google when the mirrored list is stale or `force`. */
  async calendars(userId: string, force = false): Promise<MirroredCalendar[]> {
    if (!this.connection.configured) throw notConfigured();
    const account = await this.accounts.find(userId);
    if (!account) throw notConnected();
    if (force || account.revokedAt || this.stale(account.calendarsSyncedAt)) {
      await this.once(`list:${userId}`, async () => {
        const provider = await this.connection.provider(userId);
        const calendars = await this.connection.guard(userId, () => provider.listCalendars()).catch((e: unknown) => {
          throw toAppError(e, calendarNotFound);
        });
        await this.mirror.replaceCalendars(userId, calendars);
        await this.accounts.markCalendarsSynced(userId);
      });
    }
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
   * Brings the calendar's mirrored events up to date when they are older than a minute, or always with `force`.
   * True when it asked Google (the calendar's version read before may then be out of date).
   */
  async refreshEvents(userId: string, calendar: MirroredCalendar, force = false): Promise<boolean> {
    if (!force && !this.stale(calendar.syncedAt)) return false;
    await this.once(`events:${userId}:${calendar.id}`, async () => {
      const provider = await this.connection.provider(userId);
      await this.connection.guard(userId, () => this.sync(userId, calendar, provider)).catch((e: unknown) => {
        throw toAppError(e, calendarNotFound);
      });
    });
    return true;
  }

  private async sync(userId: string, calendar: MirroredCalendar, provider: CalendarProvider): Promise<void> {
    const since = new Date(this.now() - MIRROR_HISTORY_MS);
    let changes;
    try {
      changes = await provider.listChanges(calendar.id, calendar.syncToken, since);
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === 'sync_expired' && calendar.syncToken)) throw error;
      changes = await provider.listChanges(calendar.id, null, since);
    }
    await this.sql.begin(async (tx) => {
      if (changes.full) await this.mirror.clearEvents(tx, userId, calendar.id);
      else await this.mirror.deleteEvents(tx, userId, calendar.id, changes.removals);
      await this.mirror.upsertEvents(tx, userId, changes.upserts);
      await this.mirror.markSynced(tx, userId, calendar.id, changes.nextSyncToken);
    });
  }

  private stale(syncedAt: Date | null): boolean {
    return !syncedAt || this.now() - syncedAt.getTime() > FRESHNESS_MS;
  }

  private once(key: string, work: () => Promise<void>): Promise<void> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }
}
