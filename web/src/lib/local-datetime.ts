const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as the value of an `<input type="datetime-local">` (the browser's own zone). */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a datetime-local value means in the browser's zone, as ISO text; null when it is not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Working hours of a new meeting's default slot: it starts at 9:00 at the earliest and ends by 18:00. */
export const WORK_DAY = { firstHour: 9, endHour: 18 } as const;

/**
 * The next full hour at which a one-hour meeting fits in working hours (Monday to Friday, 9:00–18:00) in
 * the browser's zone, the user's: 16:20 on a Tuesday gives 17:00, 17:05 gives Wednesday 9:00, Saturday gives
 * Monday 9:00. Public holidays are not known here.
 */
export function nextWorkingHour(from = new Date()): Date {
  const start = new Date(from);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  if (start.getHours() < WORK_DAY.firstHour) start.setHours(WORK_DAY.firstHour);
  if (start.getHours() > WORK_DAY.endHour - 1) {
    start.setDate(start.getDate() + 1);
    start.setHours(WORK_DAY.firstHour);
  }
  // Sunday is 0, Saturday 6; setDate keeps the wall-clock hour across a daylight-saving change.
  if (start.getDay() === 0 || start.getDay() === 6) {
    while (start.getDay() === 0 || start.getDay() === 6) start.setDate(start.getDate() + 1);
    start.setHours(WORK_DAY.firstHour);
  }
  return start;
}

/** The next working hour (nextWorkingHour), and one hour later: the default slot of a new event or meeting form. */
export function nextHourSlot(from = new Date()): { start: string; end: string } {
  const start = nextWorkingHour(from);
  return { start: toLocalInput(start), end: toLocalInput(new Date(start.getTime() + 3_600_000)) };
}
