import t from 'tap';
import { DEFAULT_WORKING_HOURS, freeSlots } from '../src/domain/free-slots.js';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
const LONG_AGO = at('2000-01-01T00:00:00Z');

t.test('working hours follow Madrid across the change to summer time', async (t) => {
  // Friday 27 March 2026 is UTC+1; Monday 30 March is UTC+2 (the clocks went forward on Sunday 29).
  const slots = freeSlots([], at('2026-03-27T00:00:00Z'), at('2026-03-31T00:00:00Z'), 540, DEFAULT_WORKING_HOURS, LONG_AGO);
  t.same(slots.map((s) => [iso(s.start), iso(s.end)]), [
    ['2026-03-27T08:00:00.000Z', '2026-03-27T17:00:00.000Z'],
    ['2026-03-30T07:00:00.000Z', '2026-03-30T16:00:00.000Z'],
  ], 'one 9-hour slot per weekday, 09:00-18:00 local on both sides of the change; no weekend');
});

t.test('busy time, overlapping events and the past are not offered', async (t) => {
  // Wednesday 3 June 2026 at h:m in Madrid (UTC+2 in June).
  const day = (h: number, m = 0) => at('2026-06-02T22:00:00Z') + (h * 60 + m) * 60_000;
  const busy = [
    { start: day(10), end: day(11) },
    { start: day(10, 30), end: day(12, 10) },
    { start: day(17, 45), end: day(19) },
  ];
  const slots = freeSlots(busy, day(0), day(23), 60, DEFAULT_WORKING_HOURS, day(9, 5));
  t.same(slots.map((s) => iso(s.start)), [iso(day(12, 15)), iso(day(13, 15)), iso(day(14, 15)), iso(day(15, 15)), iso(day(16, 15))],
    'starts on quarter hours after the merged busy block, ends before 17:45; 09:15 would not fit before 10:00');
});

t.test('other working hours, zones and bad input', async (t) => {
  const hours = { ...DEFAULT_WORKING_HOURS, start: '08:00', end: '10:00', timeZone: 'America/Mexico_City' };
  const slots = freeSlots([], at('2026-06-03T00:00:00Z'), at('2026-06-04T00:00:00Z'), 30, hours, LONG_AGO);
  t.same(slots.map((s) => iso(s.start)), ['2026-06-03T14:00:00.000Z', '2026-06-03T14:30:00.000Z', '2026-06-03T15:00:00.000Z', '2026-06-03T15:30:00.000Z']);
  t.throws(() => freeSlots([], 0, 1, 30, { ...hours, timeZone: 'Nowhere/Land' }, 0), { message: 'Zona horaria desconocida: Nowhere/Land' });
  t.throws(() => freeSlots([], 0, 1, 30, { ...hours, start: '18:00', end: '09:00' }, 0), { message: 'El fin de la jornada debe ser posterior a su inicio' });
});
