// Proves a CalDAV server with no calendar is no dead end: POST /caldav/calendars makes one (MKCALENDAR, names validated, refusals in Spanish), and every sync pass re-lists the server's calendars.
import t from 'tap';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { startRadicale } from './fixtures/radicale.js';

const lucia = { user: 'lucia', password: 'clave-de-aplicacion' };
const radicale = await startRadicale([lucia, { user: 'otra', password: 'otra-clave' }]);
t.teardown(() => radicale.stop());
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const app = await buildServiceApp(t, calendarService, platform);
const sql = platform.db.sql;
const { userId, authorization } = signToken(app);
const headers = { authorization };
const RANGE = 'dateFrom=2026-11-01T00:00:00Z&dateTo=2026-12-01T00:00:00Z';

type Entry = { id: string; name: string; color: string | null };
const listed = async (refresh = false) => (await app.inject({ url: `/caldav/calendars${refresh ? '?refresh=true' : ''}`, headers })).json<Entry[]>();
const names = async (refresh = false) => (await listed(refresh)).map((c) => c.name).sort();
const create = (payload: unknown) => app.inject({ method: 'POST', url: '/caldav/calendars', headers, payload: payload as Record<string, unknown> });
/** The calendar list as if read more than a minute ago: the next sync pass asks the server again. */
const ageList = () => sql`update calendar.caldav_accounts set calendars_listed_at = now() - interval '2 minutes' where user_id = ${userId}`;
const agenda = async (query = RANGE) => {
  const response = await app.inject({ url: `/events?${query}`, headers });
  if (response.statusCode !== 200) throw new Error(`events answered ${response.statusCode}: ${response.body}`);
};

/** Polls `check` until it holds (a state, not a delay); fails the test after a generous deadline. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

t.test('without a connection, making a calendar is the Spanish 409 that says to connect', async (t) => {
  const refused = await create({ name: 'Citas' });
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().code, 'CALDAV_NOT_CONNECTED');
});

t.test('a server with no calendar connects with none; a calendar made there arrives in the next pass', async (t) => {
  const connected = await app.inject({ method: 'POST', url: '/caldav/connect', headers, payload: { url: radicale.url, username: 'lucia', password: lucia.password } });
  t.equal(connected.statusCode, 200, connected.body);
  t.same(connected.json().calendars, []);
  await radicale.makeCalendar(lucia, 'desde-el-movil', 'Desde el móvil', '#0E7490FF');
  await agenda();
  t.same(await names(), [], 'a list read this minute is not asked again');
  await ageList();
  await agenda();
  t.same(await names(), ['Desde el móvil'], 'an empty mirror waits for the server: the calendar is there when the agenda answers');
});

t.test('bad names are a Spanish 400 and nothing is made', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{}, /Indica el nombre del calendario/],
    [{ name: '' }, /Indica el nombre del calendario/],
    [{ name: '   ' }, /no puede estar vacío/],
    [{ name: 'Citas\ny más' }, /saltos de línea/],
    [{ name: 'x'.repeat(101) }, /demasiado largo/],
    [{ name: 42 }, /Indica el nombre del calendario/],
  ];
  for (const [payload, message] of cases) {
    const refused = await create(payload);
    t.equal(refused.statusCode, 400, JSON.stringify(payload));
    t.match(refused.json().message, message);
  }
  t.same(await names(true), ['Desde el móvil'], 'the server has no new calendar');
});

t.test('POST /caldav/calendars makes the calendar on the server; new events can go to it', async (t) => {
  const made = await create({ name: '  Citas & <clientes>  ' });
  t.equal(made.statusCode, 201, made.body);
  const calendar = made.json<Entry>();
  t.equal(calendar.name, 'Citas & <clientes>', 'trimmed, the characters XML escapes kept');
  t.match(calendar.id, new RegExp(`^${radicale.url}/lucia/[0-9a-f-]{36}/$`), 'a fresh path under the calendar home');
  const found = await radicale.request(lucia, 'PROPFIND', new URL(calendar.id).pathname, undefined, { depth: '0' });
  t.equal(found.status, 207, 'the collection is on Radicale');
  t.match(await found.text(), /Citas &amp; &lt;clientes&gt;/);
  t.same(await names(), ['Citas & <clientes>', 'Desde el móvil']);
  const event = await app.inject({
    method: 'POST', url: '/events', headers,
    payload: { title: 'Primera cita', startTime: '2026-11-20T15:00:00.000Z', endTime: '2026-11-20T16:00:00.000Z', calendarId: calendar.id },
  });
  t.equal(event.statusCode, 201, event.body);
});

t.test('a server that refuses or does not answer is a clear Spanish error, never a 500', async (t) => {
  const [account] = await sql<{ homeUrl: string }[]>`select home_url from calendar.caldav_accounts where user_id = ${userId}`;
  // Another user's home: Radicale's owner-only rights refuse the MKCALENDAR (403).
  await sql`update calendar.caldav_accounts set home_url = ${`${radicale.url}/otra/`} where user_id = ${userId}`;
  const refused = await create({ name: 'Ajeno' });
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().code, 'CALDAV_CALENDAR_REFUSED');
  t.match(refused.json().message, /no nos deja crear calendarios/);
  await sql`update calendar.caldav_accounts set home_url = ${`http://127.0.0.1:${radicale.port + 1}/lucia/`} where user_id = ${userId}`;
  const unreachable = await create({ name: 'Sin servidor' });
  t.equal(unreachable.statusCode, 502);
  t.equal(unreachable.json().code, 'CALDAV_UNAVAILABLE');
  const forced = await app.inject({ url: `/events?${RANGE}&refresh=true`, headers });
  t.equal(forced.statusCode, 502, 'Actualizar with the server down says so');
  t.equal(forced.json().code, 'CALDAV_UNAVAILABLE');
  await sql`update calendar.caldav_accounts set home_url = ${account!.homeUrl} where user_id = ${userId}`;
  t.same(await names(true), ['Citas & <clientes>', 'Desde el móvil'], 'nothing made anywhere');
});

t.test('calendars made or removed on the server come and go with the sync passes', async (t) => {
  await radicale.makeCalendar(lucia, 'vacaciones', 'Vacaciones', '#16A765FF');
  await ageList();
  // The mirror has calendars: the agenda answers from it and the list is read again in the background.
  await agenda();
  await until('the new calendar is listed', async () => (await names()).includes('Vacaciones'));
  t.pass('listed after a stale pass');
  t.equal((await radicale.request(lucia, 'DELETE', '/lucia/vacaciones/')).status, 200);
  await agenda(`${RANGE}&refresh=true`);
  t.same(await names(), ['Citas & <clientes>', 'Desde el móvil'], 'a forced pass (Actualizar) drops the calendar removed on the server');
  t.equal((await radicale.request(lucia, 'DELETE', '/lucia/desde-el-movil/')).status, 200);
  t.same(await names(true), ['Citas & <clientes>'], '?refresh=true on the list re-reads it too');
});
