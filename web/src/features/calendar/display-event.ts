import type { SourceEvent } from './api';
import { dayKey } from './month';

/** An event ready for the grid and the list: local day keys (last day inclusive) and instants. */
export interface DisplayEvent {
  event: SourceEvent;
  allDay: boolean;
  start: Date;
  end: Date;
  firstDay: string;
  lastDay: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** What an event without a title is called (the services send it too; this covers any that does not). */
export const UNTITLED = '(sin título)';

export function toDisplay(source: SourceEvent): DisplayEvent {
  const event = source.title?.trim() ? source : { ...source, title: UNTITLED };
  const allDay = event.allDay || DATE_ONLY.test(event.startDate);
  if (allDay) {
    const firstDay = event.startDate.slice(0, 10);
    // Every source's end is already the last day covered (the calendar service normalises it once).
    const endDay = event.endDate.slice(0, 10) || firstDay;
    const lastDay = endDay < firstDay ? firstDay : endDay;
    const [y, m, d] = firstDay.split('-').map(Number) as [number, number, number];
    return { event, allDay, start: new Date(y, m - 1, d), end: new Date(y, m - 1, d + 1), firstDay, lastDay };
  }
  const start = new Date(event.startDate);
  const end = new Date(event.endDate);
  const lastMoment = end.getTime() > start.getTime() ? new Date(end.getTime() - 1) : start;
  return { event, allDay, start, end, firstDay: dayKey(start), lastDay: dayKey(lastMoment) };
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

export type TypeFilter = 'all' | 'meeting' | 'reminder' | 'task';

export function matches(item: DisplayEvent, search: string, type: TypeFilter): boolean {
  if (type !== 'all' && item.event.type !== type) return false;
  const needle = fold(search.trim());
  if (!needle) return true;
  return fold(`${item.event.title} ${item.event.description} ${item.event.location}`).includes(needle);
}

/** All-day first, then by start time. */
export const byStart = (a: DisplayEvent, b: DisplayEvent) =>
  Number(b.allDay) - Number(a.allDay) || a.start.getTime() - b.start.getTime() || a.event.title.localeCompare(b.event.title);

/** Events that cover `key` (multi-day events appear on each of their days). */
export const onDay = (items: DisplayEvent[], key: string) => items.filter((i) => i.firstDay <= key && key <= i.lastDay).sort(byStart);

const TIME = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('es-ES', { weekday: 'short', day: 'numeric', month: 'short' });

export const formatTime = (date: Date) => TIME.format(date);

/** "lun, 3 nov 10:00 – 11:00", or "lun, 3 nov – mié, 5 nov · todo el día". */
export function formatRange(item: DisplayEvent): string {
  if (item.allDay) {
    const first = DAY.format(item.start);
    const [y, m, d] = item.lastDay.split('-').map(Number) as [number, number, number];
    const last = DAY.format(new Date(y, m - 1, d));
    return `${first === last ? first : `${first} – ${last}`} · todo el día`;
  }
  const sameDay = item.firstDay === item.lastDay;
  return sameDay
    ? `${DAY.format(item.start)} ${TIME.format(item.start)} – ${TIME.format(item.end)}`
    : `${DAY.format(item.start)} ${TIME.format(item.start)} – ${DAY.format(item.end)} ${TIME.format(item.end)}`;
}
