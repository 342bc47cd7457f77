import t from 'tap';
import { overrideOccurrence, withoutOccurrence } from '../src/domain/icalendar-occurrence.js';
import { expandObject } from '../src/domain/icalendar.js';

// Objects often name an IANA zone without its VTIMEZONE; writing an exception adds one built from Intl.
// Whatever the zone's rules (north or south, half-hour offsets, none), the series must read the same after.
const ZONES = ['America/New_York', 'Europe/Madrid', 'Europe/London', 'Australia/Sydney', 'Pacific/Auckland', 'America/Santiago', 'America/St_Johns', 'Asia/Kolkata', 'Asia/Tokyo'];
const FROM = new Date('2026-01-01T00:00:00Z');
const TO = new Date('2028-01-01T00:00:00Z');

const series = (tzid: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
    'BEGIN:VEVENT', 'UID:serie', 'DTSTAMP:20260101T000000Z', `DTSTART;TZID=${tzid}:20260105T090000`, `DTEND;TZID=${tzid}:20260105T093000`,
    'RRULE:FREQ=WEEKLY;COUNT=104', 'SUMMARY:Reunión', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
const starts = (ics: string) => expandObject(ics, 'c', FROM, TO).map((e) => [e.id, e.startAt.toISOString()] as const);

for (const tzid of ZONES) {
  t.test(tzid, async (t) => {
    const before = starts(series(tzid));
    t.equal(before.length, 104);
    // Every occurrence at 09:00 on the zone's wall clock, through both of its offset changes (if any).
    const wall = new Intl.DateTimeFormat('en-GB', { timeZone: tzid, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    t.ok(before.every(([, start]) => wall.format(new Date(start)) === '09:00'), 'read through Intl: 09:00 all year');

    const [removedId] = before[30]!;
    const excluded = withoutOccurrence(series(tzid), removedId.slice('serie_'.length))!;
    t.match(excluded, new RegExp(`BEGIN:VTIMEZONE\\r\\nTZID:${tzid}\\r\\n`), 'its VTIMEZONE added');
    t.same(starts(excluded), before.filter(([id]) => id !== removedId), 'read through the VTIMEZONE: the same instants, one fewer');

    const [movedId] = before[80]!;
    const moved = overrideOccurrence(excluded, movedId.slice('serie_'.length), { title: 'Movida', startTime: new Date(before[80]![1]), endTime: new Date(new Date(before[80]![1]).getTime() + 3_600_000) })!;
    t.equal(moved.match(/BEGIN:VTIMEZONE/g)?.length, 1, 'a zone the object defines is not added again');
    const after = expandObject(moved, 'c', FROM, TO).find((e) => e.id === movedId)!;
    t.equal(after.startAt.toISOString(), before[80]![1], 'the override written in the zone reads back at the same instant');
    t.equal(after.endAt.getTime() - after.startAt.getTime(), 3_600_000);
  });
}

t.test('a TZID Intl does not know is left alone (no VTIMEZONE invented), the EXDATE still written', async (t) => {
  const ics = series('Hora de Marte');
  const [first, second] = starts(ics);
  const excluded = withoutOccurrence(ics, second![0].slice('serie_'.length))!;
  t.notMatch(excluded, /VTIMEZONE/);
  t.match(excluded, /EXDATE;TZID=Hora de Marte:20260112T090000/);
  t.same(starts(excluded).slice(0, 2).map(([id]) => id), [first![0], 'serie_20260119T090000Z'], 'read as UTC, the second gone');
});
