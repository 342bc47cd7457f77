import t from 'tap';
import { calendarWithPeer, inDays } from './calendar-app.js';
import { connectGoogle } from './connect.js';

// https: the service opens push channels for the calendars it mirrors.
const { peer, platform, app } = await calendarWithPeer(t, 'https://asistente.example.com');

/** The value of one series in the process's metrics, 0 when it has no sample yet. */
async function value(series: string): Promise<number> {
  const line = (await platform.metrics.text()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

t.test("every call to Google is counted by outcome, a 429 apart; the push channels by state", async (t) => {
  const { authorization } = await connectGoogle(app, peer, 'metricas@ejemplo.com');
  const ok = 'asistente_provider_calls_total{provider="google",outcome="ok",process="test"}';
  const limited = 'asistente_provider_calls_total{provider="google",outcome="rate_limited",process="test"}';
  const before = await value(ok);
  t.ok(before > 0, `the consent's token exchange and calendar reads were counted (${before})`);
  peer.failNext(429);
  const start = inDays(8);
  const created = await app.inject({
    method: 'POST',
    url: '/google/google-calendar/calendars/primary/events',
    headers: { authorization },
    payload: { title: 'Tras el límite', startTime: start.toISOString(), endTime: new Date(start.getTime() + 1_800_000).toISOString() },
  });
  t.equal(created.statusCode, 201, created.body);
  t.equal(await value(limited), 1, 'the 429 is counted as rate_limited');
  t.ok((await value(ok)) > before, 'the retry that went through as ok');
  const text = await platform.metrics.text();
  t.match(text, /^asistente_calendar_push_channels\{state="active",process="test"\} \d+$/m);
  t.match(text, /^asistente_calendar_push_channels\{state="expired",process="test"\} 0$/m);
  t.notMatch(text, /metricas@ejemplo\.com|@/, 'no address in any label');
});
