import { createServer, type Server } from 'node:http';
import t from 'tap';
import { HostGuard, HostNotAllowedError } from '@asistente/kit';
import { caldavConnector } from '../src/adapters/calendars/caldav/client.js';
import { CaldavError } from '../src/adapters/calendars/caldav/session.js';

const credentials = { username: 'ana', password: 'secreta' };

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

t.test('plain http to a public address is refused before any connection', async (t) => {
  // The name resolves to a public address: no request may go out without TLS.
  const guard = new HostGuard('', async () => [{ address: '93.184.216.34', family: 4 }]);
  const error = await caldavConnector(guard, 1000).discover('http://calendario.ejemplo.com/dav', credentials).catch((e: unknown) => e);
  t.ok(error instanceof CaldavError && error.kind === 'insecure', 'insecure');
});

t.test('a redirect to an internal address is refused by the guard', async (t) => {
  const { server, url } = await listen((_req, res) => {
    res.writeHead(301, { location: 'http://10.0.0.7/dav/' }).end();
  });
  t.teardown(() => server.close());
  let requests = 0;
  server.on('request', () => requests++);
  const error = await caldavConnector(new HostGuard('127.0.0.1'), 2000).discover(`${url}/dav/`, credentials).catch((e: unknown) => e);
  t.ok(error instanceof HostNotAllowedError, 'the redirect target never receives a request');
  t.ok(requests > 0, 'the allowed server was asked');
});

t.test('a server that never answers gives up after the timeout, as unavailable', async (t) => {
  const { server, url } = await listen(() => {
    // Accepts the request and never answers.
  });
  t.teardown(() => server.closeAllConnections());
  t.teardown(() => server.close());
  const error = await caldavConnector(new HostGuard('127.0.0.1'), 150).discover(url, credentials).catch((e: unknown) => e);
  t.ok(error instanceof CaldavError && error.kind === 'unavailable', `unavailable (${String(error)})`);
});

t.test('the password goes only in the Authorization header, never in a URL', async (t) => {
  const seen: { url: string; authorization: string | undefined }[] = [];
  const { server, url } = await listen((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(401).end();
  });
  t.teardown(() => server.close());
  const error = await caldavConnector(new HostGuard('127.0.0.1'), 2000).discover(url, credentials).catch((e: unknown) => e);
  t.ok(error instanceof CaldavError && error.kind === 'auth', 'a 401 is a wrong password');
  t.ok(seen.length > 0);
  t.ok(seen.every((r) => !r.url.includes('secreta') && r.authorization === `Basic ${Buffer.from('ana:secreta').toString('base64')}`));
});
