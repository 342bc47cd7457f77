import { badRequest } from '@asistente/kit';

export interface Interval {
  start: number;
  end: number;
}

export interface WorkingHours {
  /** HH:mm */
  start: string;
  /** HH:mm */
  end: string;
  timeZone: string;
  /** ISO weekdays worked (1 = Monday … 7 = Sunday). */
  days: number[];
}

export const DEFAULT_WORKING_HOURS: WorkingHours = { start: '09:00', end: '18:00', timeZone: 'Europe/Madrid', days: [1, 2, 3, 4, 5] };
/** Slots start on quarter hours, as people book them. */
const ALIGN_MS = 15 * 60_000;
const MAX_SLOTS = 500;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetMs(timeZone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of a wall-clock time in `timeZone` (checked twice so a DST change between guess and answer holds). */
function zonedInstant(timeZone: string, year: number, month: number, day: number, minutes: number): number {
  const wall = Date.UTC(year, month, day, 0, minutes);
  const first = wall - offsetMs(timeZone, wall);
  return wall - offsetMs(timeZone, first);
}

/** The calendar date of `instant` in `timeZone`. */
function zonedDate(timeZone: string, instant: number): { year: number; month: number; day: number } {
  const local = new Date(instant + offsetMs(timeZone, instant));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth(), day: local.getUTCDate() };
}

export function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw badRequest(`Zona horaria desconocida: ${timeZone}`, 'INVALID_TIME_ZONE');
  }
}

/** Busy intervals sorted and merged. */
function merge(busy: Interval[]): Interval[] {
  const sorted = [...busy].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const b of sorted) {
    const last = merged.at(-1);
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else merged.push({ ...b });
  }
  return merged;
}

/**
 * Free slots of `durationMinutes` inside the working hours of [from, to), none in the past, none overlapping a
 * busy interval; back to back, starting on quarter hours.
 */
export function freeSlots(busy: Interval[], from: number, to: number, durationMinutes: number, hours: WorkingHours, now: number): Interval[] {
  checkTimeZone(hours.timeZone);
  const dayStart = minutesOf(hours.start);
  const dayEnd = minutesOf(hours.end);
  if (dayEnd <= dayStart) throw badRequest('El fin de la jornada debe ser posterior a su inicio', 'INVALID_WORKING_HOURS');
  const duration = durationMinutes * 60_000;
  const blocked = merge(busy);
  const slots: Interval[] = [];
  const lower = Math.max(from, now);
  let { year, month, day } = zonedDate(hours.timeZone, from);
  for (;;) {
    const opens = zonedInstant(hours.timeZone, year, month, day, dayStart);
    if (opens >= to || slots.length >= MAX_SLOTS) break;
    const weekday = new Date(Date.UTC(year, month, day)).getUTCDay() || 7;
    if (hours.days.includes(weekday)) {
      const closes = Math.min(zonedInstant(hours.timeZone, year, month, day, dayEnd), to);
      let cursor = Math.ceil(Math.max(opens, lower) / ALIGN_MS) * ALIGN_MS;
      for (const b of blocked) {
        if (b.end <= cursor || b.start >= closes) continue;
        while (cursor + duration <= Math.min(b.start, closes) && slots.length < MAX_SLOTS) {
          slots.push({ start: cursor, end: cursor + duration });
          cursor += duration;
        }
        cursor = Math.max(cursor, Math.ceil(b.end / ALIGN_MS) * ALIGN_MS);
      }
      while (cursor + duration <= closes && slots.length < MAX_SLOTS) {
        slots.push({ start: cursor, end: cursor + duration });
        cursor += duration;
      }
    }
    const next = new Date(Date.UTC(year, month, day + 1));
    ({ year, month, day } = { year: next.getUTCFullYear(), month: next.getUTCMonth(), day: next.getUTCDate() });
  }
  return slots;
}
