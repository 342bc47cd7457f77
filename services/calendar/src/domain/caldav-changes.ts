import { createEvent, type EventEnvelope } from '@asistente/kit';
import { eventChanged } from './event-record.js';
import { objectEvent } from './icalendar.js';

/** What the mirror held of an object before a sync: its UID (the event id) and the version it had. */
export interface KnownObject {
  uid: string;
  etag: string | null;
}

/** One sync's answer for a calendar: a full listing replaces the mirror's copy, otherwise upserts and removals. */
export interface ObjectChanges {
  full: boolean;
  upserts: { href: string; etag: string | null; ics: string }[];
  removals: string[];
}

/**
 * The `calendar.event.*` events of what another app changed in a calendar the mirror already held, as the
 * product's own writes tell them: an object new to the mirror was created, one whose etag moved was updated,
 * one gone was deleted. An object whose etag is the one the product's own write stored is that write, already
 * told. (The first sync of a calendar tells nothing: the caller does not ask.)
 */
export function foreignChanges(userId: string, calendarId: string, before: ReadonlyMap<string, KnownObject>, changes: ObjectChanges): EventEnvelope[] {
  const told: EventEnvelope[] = [];
  for (const object of changes.upserts) {
    const known = before.get(object.href);
    if (known && known.etag !== null && known.etag === object.etag) continue;
    const event = safely(() => objectEvent(object.ics, calendarId));
    if (!event) continue;
    told.push(eventChanged(known ? 'calendar.event.updated' : 'calendar.event.created', userId, 'caldav', event));
  }
  const listed = new Set(changes.upserts.map((o) => o.href));
  const gone = changes.full ? [...before.keys()].filter((href) => !listed.has(href)) : changes.removals;
  for (const href of gone) {
    const known = before.get(href);
    if (known) told.push(createEvent('calendar.event.deleted', userId, { eventId: known.uid, source: 'caldav' }));
  }
  return told;
}

/** An object another app wrote badly is left out (the mirror skips it too), not a failed sync. */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
