// The calendar port's conformance suite against every built-in provider's local peer: Google (Google peer), CalDAV (Radicale) and Outlook (Graph peer, through the teams service).
import t from 'tap';
import { trustedPeerTls } from '../../teams/test/peer/trusted.js';
import { calendarConformance } from './support/calendar-conformance.js';
import { caldavHarness, googleCalendarHarness, outlookHarness } from './support/calendar-harnesses.js';

// Runs in a child that trusts the Graph peer's self-signed CA (see trusted.ts); the first run only spawns it.
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) {
  await calendarConformance(t, 'Google', googleCalendarHarness);
  await calendarConformance(t, 'CalDAV', caldavHarness);
  await calendarConformance(t, 'Outlook', (t) => outlookHarness(t, tls));
}
