import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import t from 'tap';
import contactsService from '@asistente/contacts';
import { createLogger, type Logger } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { ROUTES } from '../src/routing-table.js';

/**
 * One request id across the gateway and the service it called (issue 16): the gateway forwards
 * `x-request-id` (the caller's when sane, its own otherwise) and the service's pino logger uses it as
 * `reqId`; embedded, both are one app and share the id by construction.
 */
interface LogLine {
  reqId?: string;
  msg?: string;
}

/** A logger writing JSON lines into `lines`, as a process's stdout would carry them. */
function memoryLogger(name: string, lines: LogLine[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  return createLogger('info', name, {}, sink);
}

const messagesFor = (lines: LogLine[], id: string) => lines.filter((l) => l.reqId === id).map((l) => l.msg);

t.test('distributed: the gateway and the contacts service log the same request id', async (t) => {
  const jwtSecret = randomBytes(32).toString('hex');
  const serviceLines: LogLine[] = [];
  const gatewayLines: LogLine[] = [];

  const servicePlatform = await createTestPlatform(t, { config: { JWT_SECRET: jwtSecret, LOG_LEVEL: 'info' }, log: memoryLogger('contacts', serviceLines) });
  const service = await buildServiceApp(t, contactsService, servicePlatform);
  const serviceUrl = await service.listen({ port: 0, host: '127.0.0.1' });

  const urls = Object.fromEntries(ROUTES.map((r) => [r.urlVariable, serviceUrl]));
  const gatewayPlatform = await createTestPlatform(t, { config: { ...urls, JWT_SECRET: jwtSecret, LOG_LEVEL: 'info' }, log: memoryLogger('gateway', gatewayLines) });
  const gateway = await buildGateway(gatewayPlatform, 'distributed');
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => gateway.close());

  // The same user on both sides (each process checks the user exists).
  const { userId } = signToken(service);
  const { authorization } = signToken(gateway, userId);

  // The caller's id, when sane, is the one both processes log.
  const given = `prueba-${randomUUID()}`;
  const res = await fetch(`${base}/api/contacts?limit=5`, { headers: { authorization, 'x-request-id': given } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('x-request-id'), given, 'echoed to the caller');
  t.ok(messagesFor(gatewayLines, given).includes('request completed'), 'the gateway logged it');
  t.ok(messagesFor(serviceLines, given).includes('request completed'), 'the service logged it under the same id');

  // No id (or an unsafe one): the gateway makes one and the service logs that one, errors included.
  const missing = await fetch(`${base}/api/contacts/${randomUUID()}`, { headers: { authorization, 'x-request-id': 'no vale\u00e9' } });
  t.equal(missing.status, 404);
  const made = missing.headers.get('x-request-id') ?? '';
  t.match(made, /^[0-9a-f-]{36}$/, 'an unsafe id is replaced');
  t.ok(messagesFor(gatewayLines, made).length > 0, 'the gateway logged the new id');
  t.ok(messagesFor(serviceLines, made).length > 0, "the service's lines carry it too");
  t.ok(messagesFor(serviceLines, made).some((m) => m !== 'incoming request' && m !== 'request completed'), "the service's own line (the 404) carries it");
  t.equal(serviceLines.filter((l) => l.reqId === 'no vale\u00e9').length, 0, 'the unsafe value is logged nowhere as an id');
});

t.test('embedded: the services log under the id the gateway answered with', async (t) => {
  const lines: LogLine[] = [];
  const platform = await createTestPlatform(t, { config: { LOG_LEVEL: 'info' }, log: memoryLogger('asistente', lines) });
  const app = await buildGateway(platform, 'embedded');
  t.teardown(() => app.close());
  const { authorization } = signToken(app);
  const res = await app.inject({ url: `/api/contacts/${randomUUID()}`, headers: { authorization } });
  t.equal(res.statusCode, 404);
  const id = String(res.headers['x-request-id']);
  t.ok(messagesFor(lines, id).length >= 2, 'the request and the contacts service line share it');
});
