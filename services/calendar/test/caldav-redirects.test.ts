// A CalDAV redirect to another origin (another port counts) never carries the app password there, in discovery or after it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import t from 'tap';
import { HostGuard } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken, type Teardown } from '@asistente/kit/testing';
import calendarService from '../src/app.js';
import { caldavConnector } from '../src/adapters/calendars/caldav/client.js';
import { CaldavError, CaldavRedirectError } from '../src/adapters/calendars/caldav/session.js';

const credentials = { username: 'ana', password: 'clave-de-aplicacion' };
const BASIC = `Basic ${Buffer.from('ana:clave-de-aplicacion').toString('base64')}`;
const REDIRECTS = [301, 302, 307, 308] as const;

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
}

/** A loopback HTTP server that records every request (method, path, Authorization) before `answer` answers it. */
async function recordingServer(t: Teardown, answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return { origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, seen };
}

/** The other origin: another port on the same host, answering as a server that got no credentials would. */
const otherOrigin = (t: Teardown) => recordingServer(t, (_req, res) => res.writeHead(401, { 'www-authenticate': 'Basic realm="otro"' }).end());

const connector = () => caldavConnector(new HostGuard('127.0.0.1'), 2000);

for (const status of REDIRECTS) {
  t.test(`${status} after discovery: the request reaches the other origin without the password`, async (t) => {
    const other = await otherOrigin(t);
    const typed = await recordingServer(t, (req, res) => res.writeHead(status, { location: `${other.origin}${req.url ?? '/'}` }).end());
    const session = connector().open(
      { serverUrl: `${typed.origin}/`, rootUrl: `${typed.origin}/`, principalUrl: `${typed.origin}/ana/`, homeUrl: `${typed.origin}/ana/` },
      credentials,
    );
    const error = await session.listCalendars().catch((e: unknown) => e);
    t.ok(error instanceof CaldavError && error.kind === 'auth', 'the other origin, asked without credentials, refuses');
    t.ok(typed.seen.length > 0 && typed.seen.every((r) => r.authorization === BASIC), 'the typed origin got the password');
    t.ok(other.seen.length > 0, 'the redirect was followed');
    t.same(other.seen.filter((r) => r.authorization !== undefined), [], 'no Authorization header reached the other origin');
    if (status === 307 || status === 308) t.ok(other.seen.every((r) => r.method === 'PROPFIND'), 'the method kept');
  });

  t.test(`${status} from /.well-known/caldav to another origin: refused, with nothing sent there carrying the password`, async (t) => {
    const other = await otherOrigin(t);
    // A server that moved: every path answers with a redirect to the same path at the other origin.
    const typed = await recordingServer(t, (req, res) => res.writeHead(status, { location: `${other.origin}${req.url ?? '/'}` }).end());
    const error = await connector().discover(`${typed.origin}/`, credentials).catch((e: unknown) => e);
    t.ok(error instanceof CaldavRedirectError, `refused (${String(error)})`);
    t.equal((error as CaldavRedirectError).target, other.origin, 'naming the origin it pointed to');
    t.notOk(other.seen.some((r) => r.path.startsWith('/.well-known/')), 'discovery was not followed there');
    t.same(other.seen.filter((r) => r.authorization !== undefined), [], 'no Authorization header reached the other origin');
  });
}

t.test('a redirect within the typed origin keeps the password, in discovery and after it', async (t) => {
  const typed = await recordingServer(t, (req, res) => {
    if (req.url?.startsWith('/.well-known/caldav')) return void res.writeHead(301, { location: '/dav/' }).end();
    if (req.url === '/ana/') return void res.writeHead(307, { location: '/dav/ana/' }).end();
    res.writeHead(401).end();
  });
  const discovered = await connector().discover(`${typed.origin}/`, credentials).catch((e: unknown) => e);
  t.ok(discovered instanceof CaldavError && discovered.kind === 'auth', 'discovery went on to /dav/ and met its 401');
  t.ok(typed.seen.some((r) => r.path === '/dav/' && r.authorization === BASIC), '/dav/ was asked with the password');

  const session = connector().open(
    { serverUrl: `${typed.origin}/`, rootUrl: `${typed.origin}/`, principalUrl: `${typed.origin}/ana/`, homeUrl: `${typed.origin}/ana/` },
    credentials,
  );
  await session.listCalendars().catch(() => undefined);
  t.ok(typed.seen.some((r) => r.path === '/dav/ana/' && r.authorization === BASIC), 'the followed request carried the password');
});

t.test('connecting to a server whose discovery points to another origin: a Spanish 400 naming it, nothing stored', async (t) => {
  const other = await otherOrigin(t);
  const typed = await recordingServer(t, (req, res) => res.writeHead(302, { location: `${other.origin}${req.url ?? '/'}` }).end());
  const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
  const app = await buildServiceApp(t, calendarService, platform);
  const { authorization, userId } = signToken(app);
  const res = await app.inject({ method: 'POST', url: '/caldav/connect', headers: { authorization }, payload: { url: `${typed.origin}/`, ...credentials } });
  t.equal(res.statusCode, 400);
  t.same(res.json(), {
    statusCode: 400,
    code: 'CALDAV_REDIRECTED',
    error: 'Bad Request',
    message: `El servidor CalDAV redirige a otra dirección (${other.origin}). Si es la de tu servidor, escríbela como dirección del servidor`,
  });
  t.notMatch(res.body, credentials.password, 'no password in the answer');
  t.same(other.seen.filter((r) => r.authorization !== undefined), [], 'no Authorization header reached the other origin');
  const [row] = await platform.db.sql<{ n: number }[]>`select count(*)::int as n from calendar.caldav_accounts where user_id = ${userId}`;
  t.equal(row?.n, 0, 'no account stored');
});
