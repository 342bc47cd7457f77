import type { Sql, TransactionSql } from '@asistente/kit';
import type { KnownObject } from './caldav-changes.js';
import type { ObjectIndex } from './icalendar.js';

type Db = Sql | TransactionSql;

/** Where discovery found the account: kept, so later requests skip `/.well-known/caldav` and the principal. */
export interface CaldavLocation {
  serverUrl: string;
  rootUrl: string;
  principalUrl: string;
  homeUrl: string;
}

/** One calendar collection: its URL is its id. */
export interface CaldavCalendar {
  id: string;
  name: string;
  color: string | null;
  ctag: string | null;
  syncToken: string | null;
  /** The server answers the sync-collection report (RFC 6578): changes since a token. */
  supportsSync: boolean;
}

export interface CaldavObject {
  href: string;
  etag: string | null;
  ics: string;
}

export interface CaldavAccountRow extends CaldavLocation {
  username: string;
  passwordEnc: string;
}

export interface StoredCalendar {
  id: string;
  name: string;
  color: string | null;
  supportsSync: boolean;
  ctag: string | null;
  syncToken: string | null;
  syncedAt: Date | null;
}

export interface StoredObject {
  calendarId: string;
  href: string;
  uid: string;
  etag: string | null;
  ics: string;
}

/** `calendar.caldav_*`: one CalDAV account per user, its calendars and their objects; every query by user. */
export class CaldavRepository {
  constructor(private readonly sql: Sql) {}

  async account(userId: string): Promise<CaldavAccountRow | undefined> {
    const [row] = await this.sql<CaldavAccountRow[]>`
      select server_url, username, password_enc, root_url, principal_url, home_url
      from calendar.caldav_accounts where user_id = ${userId}`;
    return row;
  }

  /** A new connection replaces the old one, its calendars and their objects. */
  async connect(tx: TransactionSql, userId: string, account: CaldavAccountRow, calendars: CaldavCalendar[]): Promise<void> {
    await tx`delete from calendar.caldav_accounts where user_id = ${userId}`;
    await tx`
      insert into calendar.caldav_accounts (user_id, server_url, username, password_enc, root_url, principal_url, home_url, calendars_listed_at)
      values (${userId}, ${account.serverUrl}, ${account.username}, ${account.passwordEnc}, ${account.rootUrl}, ${account.principalUrl}, ${account.homeUrl}, now())`;
    await this.saveCalendars(tx, userId, calendars);
  }

  /** The calendar list as the server has it now, keeping the sync state (and objects) of those that remain. */
  async replaceCalendars(userId: string, calendars: CaldavCalendar[]): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`delete from calendar.caldav_calendars where user_id = ${userId} and not (id = any(${calendars.map((c) => c.id)}::text[]))`;
      await this.saveCalendars(tx, userId, calendars);
      await tx`update calendar.caldav_accounts set calendars_listed_at = now() where user_id = ${userId}`;
    });
  }

  /** When the server's calendar list was last read: null never since connecting, undefined with no account. */
  async calendarsListedAt(userId: string): Promise<Date | null | undefined> {
    const [row] = await this.sql<{ calendarsListedAt: Date | null }[]>`
      select calendars_listed_at from calendar.caldav_accounts where user_id = ${userId}`;
    return row?.calendarsListedAt;
  }

  private async saveCalendars(tx: TransactionSql, userId: string, calendars: CaldavCalendar[]): Promise<void> {
    for (const [position, c] of calendars.entries()) {
      await tx`
        insert into calendar.caldav_calendars (user_id, id, name, color, position, supports_sync)
        values (${userId}, ${c.id}, ${c.name}, ${c.color}, ${position}, ${c.supportsSync})
        on conflict (user_id, id) do update set
          name = excluded.name, color = excluded.color, position = excluded.position, supports_sync = excluded.supports_sync`;
    }
  }

  calendars(userId: string): Promise<StoredCalendar[]> {
    return this.sql<StoredCalendar[]>`
      select id, name, color, supports_sync, ctag, sync_token, synced_at
      from calendar.caldav_calendars where user_id = ${userId} order by position, name`;
  }

  async etags(userId: string, calendarId: string): Promise<Map<string, string | null>> {
    const rows = await this.sql<{ href: string; etag: string | null }[]>`
      select href, etag from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId}`;
    return new Map(rows.map((r) => [r.href, r.etag]));
  }

  /**
   * One sync's result, in one transaction: a full listing replaces the calendar's objects. `alongside` runs in
   * the same transaction with what the mirror held just before (its domain events go out with the change).
   */
  async applyChanges(
    userId: string,
    calendarId: string,
    changes: { full: boolean; upserts: (CaldavObject & { index: ObjectIndex })[]; removals: string[]; ctag: string | null; syncToken: string | null },
    alongside?: (tx: TransactionSql, before: Map<string, KnownObject>) => Promise<void>,
  ): Promise<void> {
    await this.sql.begin(async (tx) => {
      await this.lockCalendar(tx, userId, calendarId);
      const before = alongside ? await this.known(tx, userId, calendarId) : undefined;
      if (changes.full) await tx`delete from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId}`;
      else if (changes.removals.length > 0) {
        await tx`delete from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId} and href = any(${changes.removals}::text[])`;
      }
      for (const o of changes.upserts) await this.saveObject(tx, userId, calendarId, o, o.index);
      await tx`
        update calendar.caldav_calendars set ctag = ${changes.ctag}, sync_token = ${changes.syncToken}, synced_at = now()
        where user_id = ${userId} and id = ${calendarId}`;
      if (alongside && before) await alongside(tx, before);
    });
  }

  /** The calendar's objects as the mirror holds them: href to UID and etag. */
  private async known(db: Db, userId: string, calendarId: string): Promise<Map<string, KnownObject>> {
    const rows = await db<{ href: string; uid: string; etag: string | null }[]>`
      select href, uid, etag from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId}`;
    return new Map(rows.map((r) => [r.href, { uid: r.uid, etag: r.etag }]));
  }

  /**
   * Holds the calendar's row until the transaction ends: a sync and one of the product's own writes to the same
   * calendar then see each other's mirror, so each change is told once, by whichever of them stored it first.
   */
  async lockCalendar(db: Db, userId: string, calendarId: string): Promise<void> {
    await db`select 1 from calendar.caldav_calendars where user_id = ${userId} and id = ${calendarId} for update`;
  }

  /** The version of the object the mirror holds (undefined: none at that href). */
  async storedEtag(db: Db, userId: string, calendarId: string, href: string): Promise<string | null | undefined> {
    const [row] = await db<{ etag: string | null }[]>`
      select etag from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId} and href = ${href}`;
    return row ? row.etag : undefined;
  }

  async saveObject(db: Db, userId: string, calendarId: string, o: CaldavObject, index: ObjectIndex): Promise<void> {
    await db`
      insert into calendar.caldav_objects (user_id, calendar_id, href, uid, etag, ics, starts_at, ends_at)
      values (${userId}, ${calendarId}, ${o.href}, ${index.uid}, ${o.etag}, ${o.ics}, ${index.startsAt}, ${index.endsAt})
      on conflict (user_id, calendar_id, href) do update set
        uid = excluded.uid, etag = excluded.etag, ics = excluded.ics, starts_at = excluded.starts_at, ends_at = excluded.ends_at`;
  }

  /** Whether the mirror still held the object (false: a sync already removed it). */
  async removeObject(db: Db, userId: string, calendarId: string, href: string): Promise<boolean> {
    const removed = await db`delete from calendar.caldav_objects where user_id = ${userId} and calendar_id = ${calendarId} and href = ${href}`;
    return removed.count > 0;
  }

  /** Objects whose events can touch [from, to). */
  objectsInRange(userId: string, calendarIds: string[], from: Date, to: Date): Promise<StoredObject[]> {
    return this.sql<StoredObject[]>`
      select calendar_id, href, uid, etag, ics from calendar.caldav_objects
      where user_id = ${userId} and calendar_id = any(${calendarIds}::text[])
        and starts_at < ${to} and (ends_at is null or ends_at > ${from})`;
  }

  async objectByUid(userId: string, calendarId: string, uid: string): Promise<StoredObject | undefined> {
    const [row] = await this.sql<StoredObject[]>`
      select calendar_id, href, uid, etag, ics from calendar.caldav_objects
      where user_id = ${userId} and calendar_id = ${calendarId} and uid = ${uid} limit 1`;
    return row;
  }

  /** Forgets the account; its calendars and objects go with it (foreign keys). */
  async delete(userId: string, alongside: (tx: TransactionSql) => Promise<void>): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const gone = await tx`delete from calendar.caldav_accounts where user_id = ${userId} returning id`;
      if (gone.length > 0) await alongside(tx);
      return gone.length > 0;
    });
  }
}
