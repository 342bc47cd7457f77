import t from 'tap';
import { nextHourSlot, nextWorkingHour } from '../src/lib/local-datetime.js';

// Local wall-clock times: the rule is about the user's own hours, whatever zone this process runs in.
const at = (text: string) => new Date(text);
const local = (date: Date) => `${['Dom', 'Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb'][date.getDay()]} ${date.getDate()} ${date.getHours()}:${String(date.getMinutes()).padStart(2, '0')}`;

t.test('a new meeting starts at the next full hour that fits in Monday–Friday, 9:00–18:00', async (t) => {
  // 2026-11-24 is a Tuesday.
  t.equal(local(nextWorkingHour(at('2026-11-24T10:20'))), 'Mar 24 11:00', 'during the day: the next full hour');
  t.equal(local(nextWorkingHour(at('2026-11-24T16:59'))), 'Mar 24 17:00', 'the last slot that ends by 18:00');
  t.equal(local(nextWorkingHour(at('2026-11-24T17:00'))), 'Mié 25 9:00', 'too late for today: tomorrow at 9');
  t.equal(local(nextWorkingHour(at('2026-11-24T22:40'))), 'Mié 25 9:00', 'the evening (the old default was 23:00)');
  t.equal(local(nextWorkingHour(at('2026-11-24T06:10'))), 'Mar 24 9:00', 'early morning: 9 the same day');
  t.equal(local(nextWorkingHour(at('2026-11-27T18:30'))), 'Lun 30 9:00', 'Friday evening: Monday');
  t.equal(local(nextWorkingHour(at('2026-11-28T12:00'))), 'Lun 30 9:00', 'Saturday: Monday');
  t.equal(local(nextWorkingHour(at('2026-11-29T23:30'))), 'Lun 30 9:00', 'Sunday night: Monday');
});

t.test('the form slot is that hour and one hour later, as datetime-local values', async (t) => {
  t.same(nextHourSlot(at('2026-11-24T22:40')), { start: '2026-11-25T09:00', end: '2026-11-25T10:00' });
});
