import ICAL from 'ical.js';
import type { EventInput } from './event-record.js';
import { defineZones } from './vtimezone.js';
import { applyInput, events, instanceId, overrideId, parse, toInstant, tzidOf, writeTime, zoneOf } from './icalendar.js';

/** A series is walked at most this far looking for an occurrence (as far as expanding it reads). */
const MAX_STEPS = 50_000;
const DAY_MS = 86_400_000;

/** The series, and the occurrence an instance id names: its override if it has one, its original start. */
interface Occurrence {
  root: ICAL.Component;
  master: ICAL.Component;
  override: ICAL.Component | undefined;
  /** The occurrence's original start as the series writes it (its RECURRENCE-ID), and that time's TZID. */
  original: ICAL.Time;
  tzid: string | null;
}

/** The occurrence's start encoded in an instance id (UTC instant, or the day). */
function instantOf(occurrence: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(occurrence);
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
}

/**
 * Finds the occurrence `occurrence` (an instance id's suffix) of the object's series: an override already
 * written for it, or the series' rule walked up to its original start (EXDATEs skipped by ical.js, so a
 * deleted occurrence is not found). Undefined when the object has no such occurrence.
 */
function findOccurrence(ics: string, occurrence: string): Occurrence | undefined {
  const root = parse(ics);
  const found = events(root);
  if (!found || !found.master.isRecurring()) return undefined;
  const { master } = found;
  const id = `${master.uid}_${occurrence}`;
  const override = found.overrides.find((o) => overrideId(master.uid, o) === id);
  if (override) {
    const original = override.getFirstPropertyValue('recurrence-id') as ICAL.Time;
    return { root, master: master.component, override, original, tzid: tzidOf(override, 'recurrence-id') };
  }
  const target = instantOf(occurrence);
  if (Number.isNaN(target)) return undefined;
  const zone = tzidOf(master.component, 'dtstart');
  const iterator = master.iterator();
  for (let next = iterator.next(), n = 0; next && n < MAX_STEPS; next = iterator.next(), n++) {
    // A day's id is its UTC midnight, a zoned date-time's its instant: past a day beyond it, it is not there.
    if (toInstant(next, zone).getTime() > target + DAY_MS) break;
    if (instanceId(master.uid, next, zone) === id) return { root, master: master.component, override: undefined, original: next.clone(), tzid: next.isDate ? null : zone };
  }
  return undefined;
}

/**
 * The object with one occurrence of its series changed, as calendar apps do it: a VEVENT with the series' UID
 * and RECURRENCE-ID (the original start, written as the series writes DTSTART) overrides it, a copy of the
 * series' event (alarms, attendees, organiser kept) without its rule; an occurrence already overridden has
 * its override changed. Times go in the series' zone. Undefined when the series has no such occurrence.
 */
export function overrideOccurrence(ics: string, occurrence: string, input: EventInput): string | undefined {
  const found = findOccurrence(ics, occurrence);
  if (!found) return undefined;
  const { root, master, original, tzid } = found;
  let override = found.override;
  if (!override) {
    override = new ICAL.Component(structuredClone(master.toJSON()) as unknown[]);
    for (const name of ['rrule', 'rdate', 'exdate', 'exrule', 'recurrence-id']) override.removeAllProperties(name);
    writeTime(override, 'recurrence-id', original, tzid);
    // The copy starts from the series' version: applyInput raises it, as the change is newer than the series.
    root.addSubcomponent(override);
  }
  applyInput(override, input, zoneOf(master));
  defineZones(root);
  return root.toString();
}

/**
 * The object without one occurrence of its series: an EXDATE on the series (its original start, written as
 * the series writes DTSTART) and its override, if it had one, removed. Undefined when there is no such one.
 */
export function withoutOccurrence(ics: string, occurrence: string): string | undefined {
  const found = findOccurrence(ics, occurrence);
  if (!found) return undefined;
  const { root, master, override, original, tzid } = found;
  if (override) root.removeSubcomponent(override);
  writeTime(master, 'exdate', original, tzid, true);
  defineZones(root);
  return root.toString();
}
