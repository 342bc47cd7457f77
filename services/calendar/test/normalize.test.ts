import t from 'tap';
import { fromGoogleEvent } from '../src/adapters/calendars/google/resources.js';
import { toGoogleEvent } from '../src/adapters/calendars/google/screen-event.js';
import { toCalendarEvent } from '../src/domain/normalize.js';

t.test('Google events become the spec normalised event', async (t) => {
  const allDay = fromGoogleEvent('cal', { id: 'a', summary: 'Vacaciones', start: { date: '2026-08-03' }, end: { date: '2026-08-08' } })!;
  t.match(toCalendarEvent(allDay), { title: 'Vacaciones', allDay: true, type: 'reminder', startDate: '2026-08-03', endDate: '2026-08-07', startTime: '2026-08-03', endTime: '2026-08-07' });
  t.same(toGoogleEvent(allDay).end, { date: '2026-08-08' }, "Google's own end stays exclusive");

  const timed = fromGoogleEvent('cal', {
    id: 'b', summary: '  ', status: 'tentative', recurringEventId: 'serie',
    start: { dateTime: '2026-08-03T10:00:00+02:00' }, end: { dateTime: '2026-08-03T11:00:00+02:00' },
    attendees: [{ email: 'ana@ejemplo.com' }, { displayName: 'sin correo' }],
    conferenceData: { entryPoints: [{ entryPointType: 'phone', uri: 'tel:+34' }, { entryPointType: 'video', uri: 'https://meet.google.com/abc' }] },
  })!;
  t.match(toCalendarEvent(timed), {
    title: '(sin título)', type: 'meeting', status: 'tentative', startDate: '2026-08-03T08:00:00.000Z', endTime: '2026-08-03T09:00:00.000Z',
    attendees: ['ana@ejemplo.com'], isRecurring: true, recurrencePattern: null, description: '', location: '', source: 'google',
  });
  t.equal(toGoogleEvent(timed).hangoutLink, 'https://meet.google.com/abc', 'the video entry point when there is no hangoutLink');
  t.equal(fromGoogleEvent('cal', { summary: 'sin id' }), undefined);
  t.equal(fromGoogleEvent('cal', { id: 'x', start: { dateTime: 'no' } }), undefined);
});
