import ICAL from 'ical.js';
import icalGenerator from 'ical-generator';
import type { EventInput, EventRecord } from './event-record.js';

/** A series yields at most this many occurrences per read (a daily series over a 400-day range fits)... */
const MAX_OCCURRENCES = 2000;
/** ...and is walked at most this far from its first one (a daily series started decades ago still reaches today). */
const MAX_STEPS = 50_000;
/** A moved occurrence stays within a month of its original date (a looser bound would walk forever). */
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

/** The zone's offset (ms) at a wall time, by Intl (two passes settle the hour around a transition). */
function offsetAt(tzid: string, wall: number): number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: tzid, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const offset = (instant: number) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - instant;
  };
  const first = offset(wall);
  return offset(wall - first);
}

const day = (time: ICAL.Time) => `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
const text = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' && value !== '' ? value : null;
};
/** The TZID a time property names (ical.js reads it as floating when the object does not define it). */
const tzidOf = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};
const stamp = (component: ICAL.Component, name: string): Date | null => {
  const value = component.getFirstPropertyValue(name);
  return value instanceof ICAL.Time ? toInstant(value) : null;
};

function parse(ics: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(ics) as unknown[]);
}

/** The events of one calendar object: the master (or the single event) and its overridden occurrences. */
function events(root: ICAL.Component): { master: ICAL.Event; overrides: ICAL.Component[] } | undefined {
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
  // Moved occurrences can land anywhere: a bounded series is bounded by its last start plus a generous margin.
  return { uid: master.uid, startsAt: new Date(start.getTime() - MOVED_MARGIN_MS), endsAt: until ? new Date(until.getTime() + 2 * MOVED_MARGIN_MS) : null };
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
  const iterator = master.iterator();
  const out: EventRecord[] = [];
  for (let next = iterator.next(), n = 0; next && n < MAX_STEPS && out.length < MAX_OCCURRENCES; next = iterator.next(), n++) {
    const original = toInstant(next, zone);
    // Occurrences come in order of their original start; a moved one may still land in the range.
    if (original.getTime() >= to.getTime() + MOVED_MARGIN_MS) break;
    if (original.getTime() < from.getTime() - MOVED_MARGIN_MS) continue;
    const details = master.getOccurrenceDetails(next);
    const occurrence = record(calendarId, instanceId(master.uid, details.recurrenceId, zone), details.item, details.startDate, details.endDate, rules, master.uid);
    if (overlaps(occurrence)) out.push(occurrence);
  }
  return out;
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

function setTime(component: ICAL.Component, name: string, value: Date, allDay: boolean): void {
  component.removeAllProperties(name);
  const time = allDay ? ICAL.Time.fromDateString(value.toISOString().slice(0, 10)) : ICAL.Time.fromJSDate(value, true);
  component.addPropertyWithValue(name, time);
}

function setText(component: ICAL.Component, name: string, value: string | undefined): void {
  if (value === undefined) return;
  if (value === '') component.removeAllProperties(name);
  else component.updatePropertyWithValue(name, value);
}

/**
 * The object with its (master) event changed to the form's values: everything else the user's other apps
 * wrote (alarms, attendees, the series' rule) is kept; SEQUENCE goes up so their clients see a new version.
 */
export function changeObject(ics: string, input: EventInput): string {
  const root = parse(ics);
  const found = events(root);
  if (!found) throw new Error('calendar object without an event');
  const vevent = found.master.component;
  const allDay = input.allDay === true;
  setTime(vevent, 'dtstart', input.startTime, allDay);
  vevent.removeAllProperties('duration');
  setTime(vevent, 'dtend', input.endTime, allDay);
  vevent.updatePropertyWithValue('summary', input.title);
  setText(vevent, 'description', input.description);
  setText(vevent, 'location', input.location);
  const now = ICAL.Time.fromJSDate(new Date(), true);
  vevent.updatePropertyWithValue('dtstamp', now);
  vevent.updatePropertyWithValue('last-modified', now);
  const sequence = Number(vevent.getFirstPropertyValue('sequence') ?? 0);
  vevent.updatePropertyWithValue('sequence', (Number.isFinite(sequence) ? sequence : 0) + 1);
  return root.toString();
}

/** The series without one occurrence (EXDATE), its moved copy, if any, dropped too. */
export function withoutOccurrence(ics: string, occurrence: string): string {
  const root = parse(ics);
  const found = events(root);
  if (!found) throw new Error('calendar object without an event');
  const master = found.master.component;
  for (const override of found.overrides) {
    const id = override.getFirstPropertyValue('recurrence-id');
    if (id instanceof ICAL.Time && instanceId(found.master.uid, id, tzidOf(override, 'recurrence-id')).endsWith(`_${occurrence}`)) root.removeSubcomponent(override);
  }
  const original = /T/.test(occurrence)
    ? ICAL.Time.fromJSDate(new Date(occurrence.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')), true)
    : ICAL.Time.fromDateString(occurrence.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'));
  master.addPropertyWithValue('exdate', original);
  return root.toString();
}
