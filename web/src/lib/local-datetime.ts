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

/** The next full hour from now, and one hour later: the default slot of a new event form. */
export function nextHourSlot(from = new Date()): { start: string; end: string } {
  const start = new Date(from);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  return { start: toLocalInput(start), end: toLocalInput(new Date(start.getTime() + 3_600_000)) };
}
