import type { Test } from 'tap';
import type { App } from '@asistente/kit';

/**
 * What the meeting port's conformance suite needs of one provider: the calendar service mounted with it, a
 * member who connected it and one who connected nothing, and a way to cut its far side off.
 */
export interface MeetingHarness {
  /** The provider's name in the registry, as the answers carry it. */
  provider: string;
  /** The account its members connect, as the Spanish 409 names it. */
  account: string;
  app: App;
  /** '/api' when the calendar service is mounted as the embedded gateway mounts it, '' when alone. */
  prefix: string;
  /** The bearer header of a new member with this provider connected (and no other meeting provider). */
  member(): Promise<string>;
  /** The bearer header of a new member with nothing connected. */
  stranger(): string;
  /** The join link the provider gives. */
  joinUrl: RegExp;
  /** How many meetings the provider's far side was asked to create so far. */
  asked(): number;
  /** Makes the provider's far side unreachable; the answer reaches it again. */
  cutOff(): () => void;
}

const HOUR = 3_600_000;

/** Text a Spanish speaker reads: Spanish words, no English error text. */
function spanish(t: Test, message: unknown, what: string): void {
  t.type(message, 'string', `${what}: a message`);
  t.match(String(message), /[áéíóúñ¿¡]|\b(no|de|la|el|tu|con|para|en|se)\b/i, `${what}: in Spanish (${String(message)})`);
  t.notMatch(String(message), /\b(the|failed|error|timeout|unavailable)\b/i, `${what}: no English`);
}

/** Tomorrow at 10:00 UTC plus `hours`. */
function tomorrowAt(hours: number): Date {
  const day = new Date(Date.now() + 24 * HOUR);
  day.setUTCHours(10, 0, 0, 0);
  return new Date(day.getTime() + hours * HOUR);
}

/**
 * The meeting port's conformance suite: the same checks for every provider, through the calendar service's
 * POST /meetings and GET /meetings/provider. A provider passes when it creates the meeting asked (its range,
 * title and attendees) with a join link, when nothing reaches it for a form the port refuses, and when it
 * fails in Spanish (never a 500) while its far side cannot be reached.
 */
export async function meetingConformance(t: Test, name: string, build: (t: Test) => Promise<MeetingHarness>): Promise<void> {
  // The harness is built inside the provider's own test: its peers and apps close when its checks end.
  await t.test(`meeting port: ${name}`, async (t) => checks(t, await build(t)));
}

async function checks(t: Test, harness: MeetingHarness): Promise<void> {
  const ask = async (authorization: string, method: 'GET' | 'POST', path: string, payload?: object) => {
    const response = await harness.app.inject({ method, url: `${harness.prefix}${path}`, headers: { authorization }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };
  const form = (over: Record<string, unknown> = {}) => ({
    title: '  Revisión con cliente ',
    startTime: tomorrowAt(0).toISOString(),
    endTime: tomorrowAt(0.75).toISOString(),
    attendees: ['Cliente@Ejemplo.com', 'cliente@ejemplo.com', 'socia@ejemplo.com'],
    description: 'Agenda: precios',
    ...over,
  });

  await t.test(`${harness.provider}: the member who connected it gets it; nobody else does`, async (t) => {
    const member = await harness.member();
    t.same((await ask(member, 'GET', '/meetings/provider')).body, { provider: harness.provider });
    t.same((await ask(harness.stranger(), 'GET', '/meetings/provider')).body, { provider: null });
  });

  await t.test(`${harness.provider}: creates the meeting asked, in its range, with a join link`, async (t) => {
    const member = await harness.member();
    const before = harness.asked();
    const created = await ask(member, 'POST', '/meetings', form());
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.match(created.body, {
      provider: harness.provider,
      title: 'Revisión con cliente',
      startTime: tomorrowAt(0).toISOString(),
      endTime: tomorrowAt(0.75).toISOString(),
      attendees: ['cliente@ejemplo.com', 'socia@ejemplo.com'],
    });
    t.match(created.body.joinUrl, /^https:\/\//, 'a link to join');
    t.match(created.body.joinUrl, harness.joinUrl, "the provider's own link");
    t.ok(typeof created.body.id === 'string' && created.body.id !== '', "the provider's id for it");
    t.equal(harness.asked(), before + 1, 'asked once');
  });

  await t.test(`${harness.provider}: a range that ends before it starts (or a bad form) is refused in Spanish, the provider never asked`, async (t) => {
    const member = await harness.member();
    const before = harness.asked();
    const refused: [Record<string, unknown>, string][] = [
      [{ endTime: tomorrowAt(-1).toISOString() }, 'La fecha de fin debe ser posterior a la de inicio'],
      [{ endTime: tomorrowAt(0).toISOString() }, 'La fecha de fin debe ser posterior a la de inicio'],
      [{ title: '   ' }, 'El título es requerido'],
      [{ startTime: 'mañana' }, 'La fecha de inicio no es una fecha válida'],
      [{ attendees: ['no-es-correo'] }, 'Correo de invitado inválido'],
    ];
    for (const [over, message] of refused) {
      const answer = await ask(member, 'POST', '/meetings', form(over));
      t.equal(answer.status, 400, JSON.stringify(over));
      t.equal(answer.body.message, message);
    }
    t.equal(harness.asked(), before, 'nothing reached the provider');
  });

  await t.test(`${harness.provider}: a member with nothing connected is told in Spanish what to connect`, async (t) => {
    const answer = await ask(harness.stranger(), 'POST', '/meetings', form());
    t.equal(answer.status, 409);
    t.equal(answer.body.code, 'MEETING_PROVIDER_NOT_CONNECTED');
    t.match(answer.body.message, harness.account, 'names the account to connect');
    spanish(t, answer.body.message, 'not connected');
  });

  await t.test(`${harness.provider}: unreachable is a Spanish error, not a 500, and it recovers`, async (t) => {
    const member = await harness.member();
    const restore = harness.cutOff();
    const started = Date.now();
    const failed = await ask(member, 'POST', '/meetings', form()).finally(restore);
    t.ok(failed.status >= 400 && failed.status !== 500 && failed.status < 600, `answered ${failed.status}`);
    t.ok(failed.status >= 502, 'a failure on the far side, not the member\'s');
    spanish(t, failed.body.message, 'unreachable');
    t.ok(Date.now() - started < 20_000, 'within the service\'s own deadline');
    const again = await ask(member, 'POST', '/meetings', form());
    t.equal(again.status, 201, 'reached again, it creates');
  });
}
