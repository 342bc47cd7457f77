import ICAL from 'ical.js';

/**
 * Time zone definitions for the objects we write. Many servers and apps send a TZID (an IANA name) without
 * its VTIMEZONE; RFC 5545 requires one per TZID, and some servers (Radicale) refuse an EXDATE in an undefined
 * zone. When we write into such an object we add the VTIMEZONE, built from the zone's current rules as Intl
 * knows them (the platform's tz database): no time zone library, and nothing changes for a zone the object defines.
 */

const DAY_MS = 86_400_000;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset (ms) at an instant, by Intl (throws RangeError for a name Intl does not know). */
export function offsetOf(tzid: string, instant: number): number {
  let format = formats.get(tzid);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: tzid, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(tzid, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - instant;
}

/** Whether Intl knows the zone by that name. */
export function knownZone(tzid: string): boolean {
  try {
    offsetOf(tzid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The instants in `year` where the zone's offset changes (to the minute), with the offsets around them. */
function transitions(tzid: string, year: number): { at: number; from: number; to: number }[] {
  const found: { at: number; from: number; to: number }[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  for (let day = Date.UTC(year, 0, 1); day < end; day += DAY_MS) {
    const from = offsetOf(tzid, day);
    const to = offsetOf(tzid, day + DAY_MS);
    if (from === to) continue;
    let low = day;
    let high = day + DAY_MS;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetOf(tzid, middle) === from) low = middle;
      else high = middle;
    }
    found.push({ at: high, from, to });
  }
  return found;
}

const utcOffset = (ms: number) => ICAL.UtcOffset.fromSeconds(ms / 1000);

/** The yearly rule of a change at a local wall time: its month and its nth (or last) weekday there. */
function yearlyRule(wall: Date): { month: number; nth: number; weekday: number } {
  const month = wall.getUTCMonth();
  const day = wall.getUTCDate();
  const monthLength = new Date(Date.UTC(wall.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return { month: month + 1, nth: day + 7 > monthLength ? -1 : Math.ceil(day / 7), weekday: wall.getUTCDay() };
}

/** That rule's day in 1970, the usual start of a VTIMEZONE's observances. */
function dayIn1970(rule: { month: number; nth: number; weekday: number }): number {
  const first = new Date(Date.UTC(1970, rule.month - 1, 1));
  const length = new Date(Date.UTC(1970, rule.month, 0)).getUTCDate();
  const firstMatch = 1 + ((rule.weekday - first.getUTCDay() + 7) % 7);
  if (rule.nth > 0) return firstMatch + 7 * (rule.nth - 1);
  return firstMatch + 7 * Math.floor((length - firstMatch) / 7);
}

/** A VTIMEZONE for an IANA zone: its STANDARD and DAYLIGHT observances as yearly rules, or one fixed offset. */
export function vtimezoneFor(tzid: string, year: number): ICAL.Component {
  const zone = new ICAL.Component('vtimezone');
  zone.addPropertyWithValue('tzid', tzid);
  const changes = transitions(tzid, year);
  if (changes.length === 0) {
    const standard = new ICAL.Component('standard');
    const offset = offsetOf(tzid, Date.UTC(year, 0, 1));
    standard.addPropertyWithValue('dtstart', ICAL.Time.fromData({ year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, isDate: false }));
    standard.addPropertyWithValue('tzoffsetfrom', utcOffset(offset));
    standard.addPropertyWithValue('tzoffsetto', utcOffset(offset));
    zone.addSubcomponent(standard);
    return zone;
  }
  for (const change of changes) {
    // DTSTART is the local time before the change (TZOFFSETFROM's), as RFC 5545 counts it.
    const wall = new Date(change.at + change.from);
    const rule = yearlyRule(wall);
    const observance = new ICAL.Component(change.to > change.from ? 'daylight' : 'standard');
    const start = ICAL.Time.fromData({ year: 1970, month: rule.month, day: dayIn1970(rule), hour: wall.getUTCHours(), minute: wall.getUTCMinutes(), second: 0, isDate: false });
    observance.addPropertyWithValue('dtstart', start);
    observance.addPropertyWithValue('rrule', ICAL.Recur.fromString(`FREQ=YEARLY;BYMONTH=${rule.month};BYDAY=${rule.nth}${WEEKDAYS[rule.weekday]}`));
    observance.addPropertyWithValue('tzoffsetfrom', utcOffset(change.from));
    observance.addPropertyWithValue('tzoffsetto', utcOffset(change.to));
    zone.addSubcomponent(observance);
  }
  return zone;
}

/**
 * Adds to the object a VTIMEZONE for each TZID its events name but it does not define (and Intl knows),
 * before the events, where calendar apps put them.
 */
export function defineZones(root: ICAL.Component, year = new Date().getUTCFullYear()): void {
  const defined = new Set(root.getAllSubcomponents('vtimezone').map((z) => String(z.getFirstPropertyValue('tzid'))));
  const named = new Set<string>();
  const walk = (component: ICAL.Component) => {
    for (const property of component.getAllProperties()) {
      const tzid = property.getParameter('tzid');
      if (typeof tzid === 'string') named.add(tzid);
    }
    component.getAllSubcomponents().forEach(walk);
  };
  root.getAllSubcomponents('vevent').forEach(walk);
  const missing = [...named].filter((tzid) => !defined.has(tzid) && knownZone(tzid));
  if (missing.length === 0) return;
  const others = [...root.getAllSubcomponents()];
  for (const component of others) root.removeSubcomponent(component);
  for (const tzid of missing) root.addSubcomponent(vtimezoneFor(tzid, year));
  for (const component of others) root.addSubcomponent(component);
}
