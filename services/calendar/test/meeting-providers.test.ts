// The meeting port's conformance suite against every provider's local peer: Google Meet (Google peer) and Teams (Graph peer, through the teams service).
import t from 'tap';
import { trustedPeerTls } from '../../teams/test/peer/trusted.js';
import { meetingConformance } from './support/meeting-conformance.js';
import { googleMeetHarness, teamsHarness } from './support/meeting-harnesses.js';

// Runs in a child that trusts the Graph peer's self-signed CA (see trusted.ts); the first run only spawns it.
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) {
  await meetingConformance(t, 'Google Meet', googleMeetHarness);
  await meetingConformance(t, 'Teams', (t) => teamsHarness(t, tls));
}
