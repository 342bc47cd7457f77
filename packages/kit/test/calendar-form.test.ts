import t from 'tap';
import { AppError, checkEventForm } from '../src/index.js';

const form = { title: ' Revisión ', startTime: '2026-12-01T09:00:00+01:00', endTime: '2026-12-01T10:00:00+01:00' };
const refused = (body: Parameters<typeof checkEventForm>[0]) => {
  try {
    checkEventForm(body);
  } catch (error) {
    return error instanceof AppError ? `${error.statusCode} ${error.code} ${error.message}` : String(error);
  }
  return 'accepted';
};

t.test('a timed event: instants as sent, the title trimmed', async (t) => {
  t.same(checkEventForm({ ...form, location: ' Taller ' }), {
    title: 'Revisión',
    start: new Date('2026-12-01T08:00:00Z'),
    end: new Date('2026-12-01T09:00:00Z'),
    allDay: false,
    location: 'Taller',
  });
});

t.test("an all-day event's last day becomes the next midnight (the providers' exclusive end)", async (t) => {
  const checked = checkEventForm({ title: 'Feria', startTime: '2026-12-07', endTime: '2026-12-08', allDay: true });
  t.same([checked.start.toISOString(), checked.end.toISOString(), checked.allDay], ['2026-12-07T00:00:00.000Z', '2026-12-09T00:00:00.000Z', true]);
});

t.test('refusals in Spanish, each with its code', async (t) => {
  t.equal(refused({ ...form, title: '  ' }), '400 TITLE_REQUIRED El título es requerido');
  t.equal(refused({ ...form, startTime: 'mañana' }), '400 INVALID_DATE La fecha de inicio no es una fecha válida');
  t.equal(refused({ ...form, allDay: true, startTime: '2026-02-30', endTime: '2026-03-01' }), '400 INVALID_DATE La fecha de inicio debe ser una fecha (AAAA-MM-DD) en un evento de todo el día');
  t.equal(refused({ ...form, endTime: form.startTime }), '400 END_BEFORE_START La fecha de fin debe ser posterior a la de inicio');
  t.equal(refused({ title: 'x', startTime: '2026-12-08', endTime: '2026-12-07', allDay: true }), '400 END_BEFORE_START La fecha de fin no puede ser anterior a la de inicio');
  t.equal(refused({ ...form, endTime: '2027-01-15T10:00:00+01:00' }), '400 EVENT_TOO_LONG Un evento no puede durar más de 31 días');
});
