import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createEvent, createLogger, JetStreamBus, type EventEnvelope } from '@asistente/kit';
import { createTestPlatform } from '@asistente/kit/testing';
import { subscribeRollups } from '../src/app.js';

const natsUrl = process.env.NATS_URL;

{
  const skip = natsUrl ? false : 'NATS_URL is not set: the JetStream consumer test runs against a real NATS (CI sets it)';
  t.test('10k events, the consumer killed and restarted midway: rollups equal a direct recount', { skip }, async (t) => {
    if (!natsUrl) return;
    const platform = await createTestPlatform(t, { nats: true });
    const { config, db } = platform;
    const log = createLogger('silent', 'test');
    const consumerBus = () =>
      new JetStreamBus({ url: natsUrl, stream: config.NATS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX, log, ackWaitMs: 1500 });

    const users = [randomUUID(), randomUUID(), randomUUID()];
    const events: EventEnvelope[] = [];
    for (let i = 0; i < 10_000; i++) {
      const userId = users[i % users.length]!;
      const at = new Date(Date.now() - (i % 500) * 60_000);
      const kind = i % 3;
      events.push(
        kind === 0
          ? createEvent('email.message.sent', userId, { messageId: `m${i}`, provider: 'gmail' }, at)
          : kind === 1
            ? createEvent('whatsapp.message.received', userId, { messageId: `m${i}`, chatId: `chat${i % 17}` }, at)
            : createEvent('teams.message.sent', userId, { messageId: `m${i}`, channelId: 'c' }, at),
      );
    }
    const outbox = platform.outbox('platform');
    for (let i = 0; i < events.length; i += 1000) await db.sql.begin((tx) => outbox.append(tx, events.slice(i, i + 1000)));

    const applied = async () => Number((await db.sql<{ n: string }[]>`select count(*) as n from analytics.events`)[0]!.n);
    const first = consumerBus();
    await subscribeRollups(db.sql, first, log);
    while ((await applied()) < 3000) await sleep(50);
    // A kill: the connection is dropped with deliveries in flight and unacknowledged.
    await first.close();
    const afterKill = await applied();
    t.ok(afterKill < events.length, `stopped midway (${afterKill} applied)`);

    const second = consumerBus();
    t.teardown(() => second.close());
    await subscribeRollups(db.sql, second, log);
    const deadline = Date.now() + 120_000;
    while ((await applied()) < events.length && Date.now() < deadline) await sleep(200);
    t.equal(await applied(), events.length, 'every event applied');

    const rollups = await db.sql<{ userId: string; metric: string; total: string }[]>`
      select user_id, metric, sum(value) as total from analytics.hourly group by 1, 2 order by 1, 2`;
    const recount = new Map<string, number>();
    const metricOf = { 'email.message.sent': 'email.sent', 'whatsapp.message.received': 'whatsapp.received', 'teams.message.sent': 'teams.messages' } as const;
    for (const e of events) {
      for (const metric of ['activity', metricOf[e.type as keyof typeof metricOf]]) {
        const key = `${e.userId}|${metric}`;
        recount.set(key, (recount.get(key) ?? 0) + 1);
      }
    }
    t.same(
      Object.fromEntries(rollups.map((r) => [`${r.userId}|${r.metric}`, Number(r.total)])),
      Object.fromEntries(recount),
      'rollups equal the recount',
    );
  });
}
