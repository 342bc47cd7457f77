import t from 'tap';
import { createTestPlatform, signToken } from '@asistente/kit/testing';
import { FakePhone } from './support/fake-socket.js';
import { until, user, whatsappApp } from './support/harness.js';

const SKIP = process.env.DATABASE_URL ? false : 'two replicas need PostgreSQL (the embedded database has one replica and no notifications)';
const platform = SKIP ? undefined : await createTestPlatform(t);

const ANA = '34611222333@s.whatsapp.net';
const SENDS = 50;
const WRITERS = 5;
const GAP_MS = 200;

t.test('sends accepted by a replica without the socket reach the phone at once, in order, once', { skip: SKIP }, async (t) => {
  // Lease ticks a minute apart: only the notification can bring B's sends to A's socket within the test.
  const options = { exclusive: false, lease: { ttlMs: 120_000, tickMs: 60_000, connectWaitMs: 5_000 }, pacing: { automatedGapMs: GAP_MS } };
  const a = await whatsappApp(t, platform!, options);
  const b = await whatsappApp(t, platform!, options, new FakePhone());
  const onA = user(a.app);
  await onA.call('POST', '/whatsapp/connect');
  a.phone.current.scan();
  await until(async () => (await onA.call('GET', '/whatsapp/status')).body.state === 'connected', 'connected on A');
  const socket = a.phone.current;
  const { authorization } = signToken(b.app, onA.userId);
  const sendOnB = async (text: string, origin?: 'ai') => {
    const response = await b.app.inject({ method: 'POST', url: '/api/whatsapp/messages', headers: { authorization }, payload: { jid: ANA, type: 'text', text, ...(origin ? { origin } : {}) } });
    t.equal(response.statusCode, 201, `${text} accepted by B`);
  };
  t.equal(b.sessions().local(onA.userId), undefined, 'B holds no socket');

  // Each writer sends its messages one after another: its own order is the order the phone must see.
  const acceptedAt = new Map<string, number>();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let i = 0; i < SENDS / WRITERS; i++) {
        const text = `w${writer}-${i}`;
        acceptedAt.set(text, Date.now());
        await sendOnB(text);
      }
    }),
  );
  await until(() => socket.sent.length >= SENDS, `${SENDS} sends on the phone`);

  const texts = socket.sent.map((s) => s.text);
  const duplicated = texts.length - new Set(texts).size + socket.sent.length - new Set(socket.sent.map((s) => s.messageId)).size;
  const latencies = socket.sent.map((s, i) => socket.sentAt[i]! - acceptedAt.get(s.text)!).sort((x, y) => x - y);
  const p95 = latencies[Math.ceil(latencies.length * 0.95) - 1]!;
  t.comment(`replicas whatsapp-sends: ${SENDS} sends via the other replica, p95 accept to socket ${p95} ms, ${duplicated} duplicated`);
  t.same([...texts].sort(), [...acceptedAt.keys()].sort(), 'every send reached the phone');
  t.equal(duplicated, 0, 'none twice');
  for (let writer = 0; writer < WRITERS; writer++) {
    const own = texts.filter((text) => text.startsWith(`w${writer}-`));
    t.same(own, Array.from({ length: SENDS / WRITERS }, (_, i) => `w${writer}-${i}`), `writer ${writer}'s sends in the order accepted`);
  }

  // Automatic answers handed over the same way keep their pace on the owner.
  for (const text of ['auto-1', 'auto-2', 'auto-3']) await sendOnB(text, 'ai');
  await until(() => socket.sent.length === SENDS + 3, 'the three answers on the phone');
  const answers = socket.sentAt.slice(SENDS);
  const gaps = answers.slice(1).map((at, i) => at - answers[i]!);
  t.same(socket.sent.slice(SENDS).map((s) => s.text), ['auto-1', 'auto-2', 'auto-3'], 'the answers in order');
  t.ok(gaps.every((gap) => gap >= GAP_MS), `answers ${gaps.join(' and ')} ms apart (gap ${GAP_MS} ms)`);
});
