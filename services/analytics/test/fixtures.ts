import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventData, EventType } from '@asistente/contracts';

/** A valid event of `type` for `userId` at `at`. */
export function event<T extends EventType>(type: T, userId: string, at: Date, data: EventData<T>): DomainEvent {
  return { id: randomUUID(), type, userId, occurredAt: at.toISOString(), data } as DomainEvent;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The UTC instant of local midnight of the day containing `at` in `tz` (whole-hour zones). */
export function localMidnight(at: Date, tz: string): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const sinceMidnight = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + at.getUTCMilliseconds();
  return new Date(at.getTime() - sinceMidnight);
}

export function localDay(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
