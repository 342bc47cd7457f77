// A request's lazily made logger writes what an eager pino child would, request id and redaction included, at a level set above info too.
import { Writable } from 'node:stream';
import t from 'tap';
import { createHttpApp } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';

interface LogLine {
  level: number;
  reqId?: string;
  msg?: string;
  step?: string;
  headers?: { authorization?: string };
}

async function appLoggingAt(level: string) {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const app = createHttpApp({ log: createLogger(level, 'test', {}, sink), bodyLimit: 1024 });
  app.get('/lines', async (request) => {
    request.log.info({ step: 'info' }, 'una línea info');
    request.log.warn({ step: 'warn', headers: { authorization: 'Bearer secreto' } }, 'una línea %s', 'warn');
    request.log.child({ step: 'child' }).warn('desde un hijo');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

t.test('at warn: the warn lines carry the request id, redacted; info writes nothing', async (t) => {
  const { app, lines } = await appLoggingAt('warn');
  t.teardown(() => app.close());
  const answer = await app.inject({ url: '/lines', headers: { 'x-request-id': 'peticion-1' } });
  t.equal(answer.statusCode, 200);
  const mine = lines.filter((l) => l.reqId === 'peticion-1');
  t.same(mine.map((l) => l.msg), ['una línea warn', 'desde un hijo'], 'the format arguments applied, the child bound too');
  t.equal(mine[0]?.headers?.authorization, '[redactado]', 'redaction as before');
  t.equal(mine[1]?.step, 'child');
  t.equal(lines.filter((l) => l.step === 'info').length, 0, 'info is off');
});

t.test('at info: Fastify\'s own lines and the handler\'s carry the request id', async (t) => {
  const { app, lines } = await appLoggingAt('info');
  t.teardown(() => app.close());
  await app.inject({ url: '/lines', headers: { 'x-request-id': 'peticion-2' } });
  const messages = lines.filter((l) => l.reqId === 'peticion-2').map((l) => l.msg);
  t.same(messages, ['incoming request', 'una línea info', 'una línea warn', 'desde un hijo', 'request completed']);
});
