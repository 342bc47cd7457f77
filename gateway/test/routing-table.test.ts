import t from 'tap';
import { isPublic, routeFor } from '../src/routing-table.js';

t.test('public route patterns: exact paths, one-segment wildcards, and a tail wildcard', async (t) => {
  const email = routeFor('/emails/integrations/gmail/callback');
  t.equal(email?.name, 'email');
  t.equal(isPublic(email!, 'GET', '/emails/integrations/gmail/callback'), true);
  t.equal(isPublic(email!, 'GET', '/emails/integrations//callback'), false, 'an empty segment is not a provider');
  t.equal(isPublic(email!, 'GET', '/emails/integrations/gmail/callback/more'), false);
  t.equal(isPublic(email!, 'POST', '/emails/integrations/gmail/callback'), false, 'only the method listed');
  t.equal(isPublic(email!, 'GET', '/emails/track/open/abc.def'), true);
  t.equal(isPublic(email!, 'GET', '/emails/track'), false, 'the tail wildcard needs a tail');
  t.equal(isPublic(email!, 'GET', '/emails'), false);

  const calendar = routeFor('/google/callback');
  t.equal(calendar?.name, 'calendar');
  t.equal(isPublic(calendar!, 'GET', '/google/callback'), true);
  t.equal(isPublic(calendar!, 'GET', '/google/calendars'), false);
  t.equal(routeFor('/msteams/calendar/events')?.name, 'teams');
  t.equal(routeFor('/meetings')?.name, 'calendar', 'the meeting port lives in the calendar service');
  t.equal(routeFor('/googles'), undefined, 'a prefix matches whole segments only');
});
