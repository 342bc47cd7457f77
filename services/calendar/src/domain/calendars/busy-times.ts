import type { EventRecord } from '../event-record.js';
import type { BusyTime } from './calendar-port.js';

/** Opaque, not cancelled events as the time they take (Google's and CalDAV's mirrored records). */
export function busyOf(records: EventRecord[]): BusyTime[] {
  return records.filter((e) => e.transparency !== 'transparent' && e.status !== 'cancelled').map((e) => ({ start: e.startAt.getTime(), end: e.endAt.getTime() }));
}
