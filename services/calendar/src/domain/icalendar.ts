import ICAL from 'ical.js';
import icalGenerator from 'ical-generator';
import type { EventInput, EventRecord } from './event-record.js';
import { defineZones, knownZone, offsetOf } from './vtimezone.js';

/** A series yields at most this many occurrences per read (a daily series over a 400-day range fits)... */
const MAX_OCCURRENCES = 2000;
/** ...and is walked at most this far from its first one (a daily series started decades ago still reaches today). */
const MAX_STEPS = 50_000;
/** Slack around a series' bounds in the mirror's index, and how far before a range an occurrence may start. */
const MOVED_MARGIN_MS = 31 * 86_400_000;
const PRODUCT_ID = { company: 'Mi Asistente.IA', product: 'Calendario', language: 'ES' };

/** What the mirror keeps beside the raw object to find it by range and by event id. */
export interface ObjectIndex {
  uid: string;
  /** First start of the object's events. */
  startsAt: Date;
  /** Last end, or null when the series has no end (or is too irregular to bound cheaply). */
  endsAt: Date | null;
}

/** Instance ids: the series' UID, an underscore and the occurrence's original start (UTC, or the day). */
const INSTANCE_SUFFIX = /_(\d{8}(?:T\d{6}Z)?)$/;

export function instanceId(uid: string, recurrenceId: ICAL.Time, tzid: string | null): string {
  return `${uid}_${recurrenceId.isDate ? recurrenceId.toICALString() : toInstant(recurrenceId, tzid).toISOString().replace(/[-:]|\.\d{3}/g, '')}`;
}

/** The series UID and the occurrence of an instance id; a plain id has no occurrence. */
export function splitEventId(id: string): { uid: string; occurrence: string | null } {
  const match = INSTANCE_SUFFIX.exec(id);
  return match ? { uid: id.slice(0, match.index), occurrence: match[1]! } : { uid: id, occurrence: null };
}

/**
 * An instant of an iCalendar time: UTC and zones defined in the object (VTIMEZONE) through ical.js; a TZID
 * the object does not define but that is an IANA name (many servers send those bare) through Intl; floating
 * times are read as UTC (the server keeps no zone for them).
 */
export function toInstant(time: ICAL.Time, tzid: string | null = null): Date {
  if (time.zone && time.zone.tzid !== 'floating') return time.toJSDate();
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  if (!tzid) return new Date(wall);
  try {
    return new Date(wall - offsetAt(tzid, wall));
  } catch {
    return new Date(wall);
  }
}

/** The zone's offset (ms) at a wall time (two passes settle the hour around a transition). */
function offsetAt(tzid: string, wall: number): number {
  return offsetOf(tzid, wall - offsetOf(tzid, wall));
}

const day = (time: ICAL.Time) => `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
const text = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' && value !== '' ? value : null;
};
/** The TZID a time property names (ical.js reads it as floating when the object does not define it). */
export const tzidOf = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};
const stamp = (component: ICAL.Component, name: string): Date | null => {
  const value = component.getFirstPropertyValue(name);
  return value instanceof ICAL.Time ? toInstant(value) : null;
};

export function parse(ics: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(ics) as unknown[]);
}

/** The events of one calendar object: the master (or the single event) and its overridden occurrences. */
export function events(root: ICAL.Component): { master: ICAL.Event; overrides: ICAL.Component[] } | undefined {
  const vevents = root.getAllSubcomponents('vevent');
  const masterComponent = vevents.find((v) => !v.hasProperty('recurrence-id')) ?? vevents[0];
  if (!masterComponent) return undefined;
  const overrides = vevents.filter((v) => v !== masterComponent && v.hasProperty('recurrence-id'));
  const master = new ICAL.Event(masterComponent);
  for (const override of overrides) master.relateException(override);
  return { master, overrides };
}

/** The UID and range bounds of an object, for the mirror; undefined for objects without an event (tasks). */
export function indexObject(ics: string): ObjectIndex | undefined {
  const found = events(parse(ics));
  if (!found || !found.master.startDate) return undefined;
  const { master } = found;
  const zone = tzidOf(master.component, 'dtstart');
  const start = toInstant(master.startDate, zone);
  const end = master.endDate ? toInstant(master.endDate, tzidOf(master.component, 'dtend') ?? zone) : start;
  if (!master.isRecurring()) return { uid: master.uid, startsAt: start, endsAt: end.getTime() > start.getTime() ? end : new Date(start.getTime() + 86_400_000) };
  const rule = master.component.getFirstPropertyValue('rrule');
  const until = rule instanceof ICAL.Recur && rule.until ? toInstant(rule.until) : null;
  // Moved occurrences land where their overrides say: the bounds take them in, beside a generous margin.
  const moved = found.overrides.map((o) => overrideBounds(o));
  const startsAt = Math.min(start.getTime() - MOVED_MARGIN_MS, ...moved.map((m) => m.start));
  const endsAt = until ? Math.max(until.getTime() + 2 * MOVED_MARGIN_MS, ...moved.map((m) => m.end)) : null;
  return { uid: master.uid, startsAt: new Date(startsAt), endsAt: endsAt === null ? null : new Date(endsAt) };
}

/** The object's own event (a series' first occurrence) under the object's UID: what a change to the object is about. */
export function objectEvent(ics: string, calendarId: string): EventRecord | undefined {
  const found = events(parse(ics));
  if (!found || !found.master.startDate) return undefined;
  const { master } = found;
  return record(calendarId, master.uid, master, master.startDate, master.endDate ?? master.startDate, null, null);
}

/** Where an overridden occurrence now lies (its own DTSTART and DTEND or DURATION). */
function overrideBounds(component: ICAL.Component): { start: number; end: number } {
  const event = new ICAL.Event(component);
  const zone = tzidOf(component, 'dtstart');
  const start = toInstant(event.startDate, zone).getTime();
  return { start, end: Math.max(start, toInstant(event.endDate, tzidOf(component, 'dtend') ?? zone).getTime()) };
}

/** One occurrence as the mirror's event record (all-day: dates with the exclusive end, and their UTC bounds). */
function record(calendarId: string, id: string, event: ICAL.Event, start: ICAL.Time, end: ICAL.Time, recurrence: string[] | null, seriesId: string | null): EventRecord {
  const component = event.component;
  const allDay = start.isDate;
  const zone = tzidOf(component, 'dtstart');
  const startAt = allDay ? new Date(`${day(start)}T00:00:00Z`) : toInstant(start, zone);
  let endAt = allDay ? new Date(`${day(end)}T00:00:00Z`) : toInstant(end, tzidOf(component, 'dtend') ?? zone);
  if (endAt.getTime() <= startAt.getTime()) endAt = new Date(startAt.getTime() + (allDay ? 86_400_000 : 0));
  const status = text(component, 'status')?.toLowerCase() ?? 'confirmed';
  return {
    id,
    calendarId,
    summary: event.summary || null,
    description: event.description || null,
    location: event.location || null,
    allDay,
    startAt,
    endAt,
    startDate: allDay ? day(start) : null,
    endDate: allDay ? endAt.toISOString().slice(0, 10) : null,
    attendees: event.attendees.map((a) => String(a.getFirstValue()).replace(/^mailto:/i, '')).filter((a) => a !== ''),
    status,
    transparency: text(component, 'transp')?.toLowerCase() ?? null,
    recurrence,
    recurringEventId: seriesId,
    hangoutLink: null,
    htmlLink: null,
    createdAt: stamp(component, 'created'),
    updatedAt: stamp(component, 'last-modified') ?? stamp(component, 'dtstamp'),
  };
}

/**
 * The object's events overlapping [from, to): a single event as it is, a series expanded into its
 * occurrences in the range (RRULE, RDATE, EXDATE and moved or changed occurrences), cancelled ones left out.
 */
export function expandObject(ics: string, calendarId: string, from: Date, to: Date): EventRecord[] {
  const found = events(parse(ics));
  if (!found || !found.master.startDate) return [];
  const { master } = found;
  const overlaps = (e: EventRecord) => e.startAt.getTime() < to.getTime() && e.endAt.getTime() > from.getTime() && e.status !== 'cancelled';
  if (!master.isRecurring()) {
    const single = record(calendarId, master.uid, master, master.startDate, master.endDate ?? master.startDate, null, null);
    return overlaps(single) ? [single] : [];
  }
  const rules = master.component.getAllProperties('rrule').map((p) => `RRULE:${String(p.getFirstValue())}`);
  const zone = tzidOf(master.component, 'dtstart');
  // Overridden occurrences are read from their own VEVENT, wherever they were moved (days or months away).
  const out: EventRecord[] = [];
  const overridden = new Set<string>();
  for (const component of found.overrides) {
    const id = overrideId(master.uid, component);
    if (!id) continue;
    overridden.add(id);
    const event = new ICAL.Event(component);
    if (!event.startDate) continue;
    const moved = record(calendarId, id, event, event.startDate, event.endDate ?? event.startDate, rules, master.uid);
    if (overlaps(moved)) out.push(moved);
  }
  const iterator = master.iterator();
  for (let next = iterator.next(), n = 0; next && n < MAX_STEPS && out.length < MAX_OCCURRENCES; next = iterator.next(), n++) {
    const original = toInstant(next, zone);
    // Occurrences come in order of their original start; one lasting long may have started before the range.
    if (original.getTime() >= to.getTime()) break;
    if (original.getTime() < from.getTime() - MOVED_MARGIN_MS) continue;
    const id = instanceId(master.uid, next, zone);
    if (overridden.has(id)) continue;
    const occurrence = record(calendarId, id, master, next, master.getOccurrenceDetails(next).endDate, rules, master.uid);
    if (overlaps(occurrence)) out.push(occurrence);
  }
  return out;
}

/** The instance id an override stands for (its RECURRENCE-ID), or null when it has none readable. */
export function overrideId(uid: string, component: ICAL.Component): string | null {
  const recurrenceId = component.getFirstPropertyValue('recurrence-id');
  return recurrenceId instanceof ICAL.Time ? instanceId(uid, recurrenceId, tzidOf(component, 'recurrence-id')) : null;
}

/** A new event as an iCalendar object (ical-generator): UTC instants, or dates with the exclusive end. */
export function newObject(uid: string, input: EventInput): string {
  const calendar = icalGenerator({ prodId: PRODUCT_ID });
  const allDay = input.allDay === true;
  calendar.createEvent({
    id: uid,
    start: allDay ? input.startTime.toISOString().slice(0, 10) : input.startTime,
    end: allDay ? input.endTime.toISOString().slice(0, 10) : input.endTime,
    allDay,
    summary: input.title,
    description: input.description ?? null,
    location: input.location ?? null,
    stamp: new Date(),
  });
  return calendar.toString();
}

/**
 * The zone an event's times are written in: the one its DTSTART names (a VTIMEZONE of the object, or a bare
 * IANA name Intl knows), so a weekly 09:30 in Madrid stays 09:30 across the summer change; UTC otherwise.
 */
export interface WriteZone {
  tzid: string | null;
  zone: ICAL.Timezone | null;
}

export function zoneOf(component: ICAL.Component): WriteZone {
  const value = component.getFirstPropertyValue('dtstart');
  const tzid = tzidOf(component, 'dtstart');
  if (!(value instanceof ICAL.Time) || value.isDate || !tzid || value.zone === ICAL.Timezone.utcTimezone) return { tzid: null, zone: null };
  if (value.zone && value.zone.tzid !== 'floating') return { tzid, zone: value.zone };
  return knownZone(tzid) ? { tzid, zone: null } : { tzid: null, zone: null };
}

/** An instant as an iCalendar time in the zone: a date for all-day events, the zone's wall time, or UTC. */
function timeIn(instant: Date, where: WriteZone, allDay: boolean): ICAL.Time {
  if (allDay) return ICAL.Time.fromDateString(instant.toISOString().slice(0, 10));
  const utc = ICAL.Time.fromJSDate(instant, true);
  if (where.zone) return utc.convertToZone(where.zone);
  if (!where.tzid) return utc;
  const wall = new Date(instant.getTime() + offsetOf(where.tzid, instant.getTime()));
  return ICAL.Time.fromData({ year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate(), hour: wall.getUTCHours(), minute: wall.getUTCMinutes(), second: wall.getUTCSeconds(), isDate: false });
}

/**
 * Writes a time property (replacing the ones of that name unless `add`, as EXDATE adds): the TZID parameter
 * names the zone of a zoned time; UTC times end in Z and dates have none.
 */
export function writeTime(component: ICAL.Component, name: string, time: ICAL.Time, tzid: string | null, add = false): void {
  if (!add) component.removeAllProperties(name);
  const property = new ICAL.Property(name, component);
  property.setValue(time);
  if (!time.isDate && tzid && time.zone !== ICAL.Timezone.utcTimezone) property.setParameter('tzid', tzid);
  component.addProperty(property);
}

function setText(component: ICAL.Component, name: string, value: string | undefined): void {
  if (value === undefined) return;
  if (value === '') component.removeAllProperties(name);
  else component.updatePropertyWithValue(name, value);
}

/**
 * One VEVENT (a master or an override) changed to the form's values, its times in `where`; everything else
 * other apps wrote (alarms, attendees, the rule) is kept; SEQUENCE goes up so their clients see a new version.
 */
export function applyInput(vevent: ICAL.Component, input: EventInput, where: WriteZone): void {
  const allDay = input.allDay === true;
  writeTime(vevent, 'dtstart', timeIn(input.startTime, where, allDay), where.tzid);
  vevent.removeAllProperties('duration');
  writeTime(vevent, 'dtend', timeIn(input.endTime, where, allDay), where.tzid);
  vevent.updatePropertyWithValue('summary', input.title);
  setText(vevent, 'description', input.description);
  setText(vevent, 'location', input.location);
  const now = ICAL.Time.fromJSDate(new Date(), true);
  vevent.updatePropertyWithValue('dtstamp', now);
  vevent.updatePropertyWithValue('last-modified', now);
  const sequence = Number(vevent.getFirstPropertyValue('sequence') ?? 0);
  vevent.updatePropertyWithValue('sequence', (Number.isFinite(sequence) ? sequence : 0) + 1);
}

/** The object with its (master) event changed to the form's values, a series as a whole, in its own zone. */
export function changeObject(ics: string, input: EventInput): string {
  const root = parse(ics);
  const found = events(root);
  if (!found) throw new Error('calendar object without an event');
  const master = found.master.component;
  const before = master.getFirstPropertyValue('dtstart');
  applyInput(master, input, zoneOf(master));
  const after = master.getFirstPropertyValue('dtstart');
  if (found.master.isRecurring() && before instanceof ICAL.Time && after instanceof ICAL.Time) moveExceptions(master, found.overrides, before, after);
  defineZones(root);
  return root.toString();
}

/**
 * The series moved from `before` to `after`: its exceptions name original starts (EXDATE, the overrides'
 * RECURRENCE-ID), so they move with it, as Thunderbird does; otherwise deleted occurrences would come back and
 * overrides would stand beside the occurrences they replace. Same kind of start: shifted by the same wall-clock
 * difference; a day series becoming timed (or back): the same days at the new start's time.
 */
function moveExceptions(master: ICAL.Component, overrides: ICAL.Component[], before: ICAL.Time, after: ICAL.Time): void {
  const sameKind = before.isDate === after.isDate;
  const delta = after.subtractDate(before);
  if (sameKind && delta.toSeconds() === 0) return;
  const dayOf = (t: ICAL.Time) => ICAL.Time.fromData({ year: t.year, month: t.month, day: t.day, isDate: true });
  const days = dayOf(after).subtractDate(dayOf(before));
  const newTzid = after.isDate ? null : tzidOf(master, 'dtstart');
  const move = (time: ICAL.Time, tzid: string | null): [ICAL.Time, string | null] => {
    if (sameKind && time.isDate === before.isDate) {
      const moved = time.clone();
      moved.addDuration(delta);
      return [moved, tzid];
    }
    const moved = ICAL.Time.fromData({ year: time.year, month: time.month, day: time.day, hour: after.hour, minute: after.minute, second: after.second, isDate: after.isDate }, after.zone);
    moved.addDuration(days);
    return [moved, newTzid];
  };
  const exdates = master.getAllProperties('exdate').flatMap((p) => p.getValues().filter((v): v is ICAL.Time => v instanceof ICAL.Time).map((v) => [v, typeof p.getParameter('tzid') === 'string' ? (p.getParameter('tzid') as string) : null] as const));
  master.removeAllProperties('exdate');
  for (const [time, tzid] of exdates) writeTime(master, 'exdate', ...move(time, tzid), true);
  for (const override of overrides) {
    const recurrenceId = override.getFirstPropertyValue('recurrence-id');
    if (recurrenceId instanceof ICAL.Time) writeTime(override, 'recurrence-id', ...move(recurrenceId, tzidOf(override, 'recurrence-id')));
  }
}
