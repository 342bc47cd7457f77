import type { Test } from 'tap';
import type { App } from '@asistente/kit';

/** What the calendar port's conformance suite needs of one provider: the calendar service mounted with it and a member. */
export interface CalendarHarness {
  /** The provider's name in the registry, as the events carry it in `source`. */
  provider: string;
  app: App;
  /** '/api' when the calendar service is mounted as the embedded gateway mounts it, '' when alone. */
  prefix: string;
  /** A new member with this provider connected (and no other calendar): their bearer header and a calendar to write in. */
  member(): Promise<{ authorization: string; calendarId: string }>;
  /** The bearer header of a new member with nothing connected. */
  stranger(): string;
}

interface Listed {
  id: string;
  title: string;
  startTime: string;
  endTime: string;
  source: string;
  calendarId: string;
}

/** A Wednesday far enough ahead that free slots never count it as past. */
const DAY = '2031-03-05';
const at = (hour: number) => `${DAY}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const RANGE = `dateFrom=${DAY}T00:00:00Z&dateTo=${DAY}T23:59:59Z`;
const SLOTS = `/events/free-slots?${RANGE}&durationMinutes=60&workStart=09:00&workEnd=17:00&timeZone=UTC`;

/**
 * The calendar port's conformance suite: the same checks for every provider, through the provider-neutral
 * routes (/events, its writes, free slots, providers). A provider passes when what it writes is listed with
 * its name in the merged agenda and in its calendar, takes its time out of the free slots, changes and goes
 * away when asked, and when a calendar id it does not own (or another member's) is a Spanish 404.
 */
export async function calendarConformance(t: Test, name: string, build: (t: Test) => Promise<CalendarHarness>): Promise<void> {
  // The harness is built inside the provider's own test: its peers and apps close when its checks end.
  await t.test(`calendar port: ${name}`, async (t) => checks(t, await build(t)));
}

async function checks(t: Test, harness: CalendarHarness): Promise<void> {
  const { authorization, calendarId } = await harness.member();
  const ask = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, as = authorization) => {
    const response = await harness.app.inject({ method, url: `${harness.prefix}${path}`, headers: { authorization: as }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: (response.body === '' ? null : response.json()) as T };
  };
  const inCalendar = encodeURIComponent(calendarId);
  const listed = async (query = '') => {
    const answer = await ask<Listed[]>('GET', `/events?${RANGE}${query}`);
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const slotsAt = async () => (await ask<{ start: string }[]>('GET', SLOTS)).body.map((s) => s.start);

  await t.test(`${harness.provider}: listed among the member's providers`, async (t) => {
    const answer = await ask<{ providers: { source: string }[] }>('GET', '/events/providers');
    t.ok(answer.body.providers.some((p) => p.source === harness.provider), JSON.stringify(answer.body));
  });

  let created: Listed | undefined;
  await t.test(`${harness.provider}: a new event is in the agenda, in its calendar and out of the free slots`, async (t) => {
    t.ok((await slotsAt()).includes(at(10)), '10:00 free before');
    const answer = await ask<Listed>('POST', '/events', { title: 'Revisión de conformidad', startTime: at(10), endTime: at(11), calendarId });
    t.equal(answer.status, 201, JSON.stringify(answer.body));
    t.match(answer.body, { title: 'Revisión de conformidad', source: harness.provider });
    created = answer.body;
    const merged = (await listed()).find((e) => e.id === created!.id);
    t.match(merged, { title: 'Revisión de conformidad', source: harness.provider, calendarId: created.calendarId }, 'in the merged agenda');
    t.equal(Date.parse(merged!.startTime), Date.parse(at(10)));
    t.equal(Date.parse(merged!.endTime), Date.parse(at(11)));
    t.ok((await listed(`&calendarId=${inCalendar}`)).some((e) => e.id === created!.id), 'in its own calendar');
    const slots = await slotsAt();
    t.notOk(slots.includes(at(10)), 'its hour is no longer free');
    t.ok(slots.includes(at(9)) && slots.includes(at(11)), 'the hours around it still are');
  });

  await t.test(`${harness.provider}: an event changes and goes away`, async (t) => {
    const id = encodeURIComponent(created!.id);
    const changed = await ask<Listed>('PUT', `/events/${id}?calendarId=${inCalendar}`, { title: 'Revisión movida', startTime: at(14), endTime: at(15) });
    t.equal(changed.status, 200, JSON.stringify(changed.body));
    t.match(changed.body, { title: 'Revisión movida', source: harness.provider });
    const moved = (await listed()).filter((e) => e.id === changed.body.id);
    t.match(moved, [{ title: 'Revisión movida' }]);
    t.equal(Date.parse(moved[0]!.startTime), Date.parse(at(14)));
    t.ok((await slotsAt()).includes(at(10)), '10:00 free again');
    t.equal((await ask('DELETE', `/events/${encodeURIComponent(changed.body.id)}?calendarId=${inCalendar}`)).status, 204);
    t.notOk((await listed()).some((e) => e.id === changed.body.id), 'gone from the agenda');
  });

  await t.test(`${harness.provider}: a calendar nobody owns, or another member's, is a Spanish 404`, async (t) => {
    const unknown = encodeURIComponent('calendario-que-no-existe');
    const form = { title: 'X', startTime: at(10), endTime: at(11) };
    const answers = [
      await ask<{ message: string }>('GET', `/events?${RANGE}&calendarId=${unknown}`),
      await ask<{ message: string }>('POST', '/events', { ...form, calendarId: 'calendario-que-no-existe' }),
      await ask<{ message: string }>('PUT', `/events/x?calendarId=${unknown}`, form),
      await ask<{ message: string }>('DELETE', `/events/x?calendarId=${unknown}`),
      await ask<{ message: string }>('GET', `/events?${RANGE}&calendarId=${encodeURIComponent(created!.calendarId)}`, undefined, harness.stranger()),
    ];
    for (const answer of answers) {
      t.equal(answer.status, 404, JSON.stringify(answer.body));
      t.equal(answer.body.message, 'Calendario no encontrado');
    }
  });
}
