import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, createLogger, eraseOlderData, PeriodicJob, type RetentionReport } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import aiService from '../src/app.js';
import { AI_RETENTION_STEPS } from '../src/domain/retention.repository.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, aiService, platform);
const sql = platform.db.sql;
const log = createLogger('silent', 'test');
const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-30T02:00:00Z');

async function runs(userId: string, ages: number[]): Promise<void> {
  for (const days of ages) {
    await sql`
      insert into ai.runs (id, user_id, trigger, model, prompt_tokens, completion_tokens, cost_usd, created_at)
      values (${randomUUID()}, ${userId}, 'manual', 'gpt-4o-mini', 10, 5, 0.0001, ${new Date(NOW.getTime() - days * DAY)})`;
  }
}
const ages = async (userId: string) =>
  (await sql<{ age: number }[]>`select round(extract(epoch from (${NOW}::timestamptz - created_at)) / 86400)::int as age from ai.runs where user_id = ${userId} order by created_at`).map((r) => r.age);

t.test('runs older than the owner\'s days are erased in batches; today\'s and other owners\' stay', async (t) => {
  const [ana, luis] = [randomUUID(), randomUUID()];
  const event = createEvent('account.retention.changed', ana, { whatsappDays: 365, emailBodyDays: null, aiRunDays: 1 });
  await sql.begin((tx) => platform.outbox('auth').append(tx, [event]));
  for (let i = 0; (await sql`select 1 from ai.retention where user_id = ${ana} and days = 1`).length === 0; i++) {
    if (i > 1000) throw new Error("ana's copy never arrived");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await runs(ana, [400, 30, 2, 2, 2, 0, 0]);
  await runs(luis, [400]);
  const reports: RetentionReport[] = [];
  const job = new PeriodicJob(sql, { name: `test.ai.retention.${randomUUID()}`, log, now: () => NOW }, async (run) => {
    reports.push(await eraseOlderData(sql, 'ai.retention', run, AI_RETENTION_STEPS, 2));
  });
  t.equal(await job.runOnce(), 'ran');
  t.same(reports[0]!.erased, { runs: 5 });
  t.equal(reports[0]!.statements, 3, 'batches of 2: 2, 2, 1');
  t.same(await ages(ana), [0, 0], "today's runs (the daily budget's) stay");
  t.same(await ages(luis), [400], 'another owner keeps everything');
});

t.test('GET /ai/retention/preview counts the runs a shorter retention would erase, erases nothing; bad days are a 400, an agent and a token are refused', async (t) => {
  const owner = signToken(app);
  const now = Date.now();
  for (const days of [400, 40, 40, 2]) {
    await sql`
      insert into ai.runs (id, user_id, trigger, model, prompt_tokens, completion_tokens, cost_usd, created_at)
      values (${randomUUID()}, ${owner.userId}, 'manual', 'gpt-4o-mini', 10, 5, 0.0001, ${new Date(now - days * DAY)})`;
  }
  await runs(randomUUID(), [400]);
  const preview = (days: unknown, authorization = owner.authorization) => app.inject({ url: `/ai/retention/preview?days=${String(days)}`, headers: { authorization } });
  const thirty = await preview(30);
  t.equal(thirty.statusCode, 200);
  t.match(thirty.json(), { days: 30, count: 3 }, "the owner's three runs older than 30 days, nobody else's");
  t.ok(Math.abs(Date.parse(thirty.json().before) - (now - 30 * DAY)) < 60_000, 'counted from now');
  t.match((await preview(365)).json(), { count: 1 });
  t.equal((await sql`select 1 from ai.runs where user_id = ${owner.userId}`).length, 4, 'nothing erased');
  for (const bad of [0, 3651, 'siete', '']) {
    const res = await preview(bad);
    t.equal(res.statusCode, 400, `days=${String(bad)}`);
    t.match(res.json().message, /número entero de días entre 1 y 3650/);
  }
  const missing = await app.inject({ url: '/ai/retention/preview', headers: { authorization: owner.authorization } });
  t.equal(missing.statusCode, 400);
  t.match(missing.json().message, 'Falta "days"');
  const agentId = randomUUID();
  app.revocations.vouchForTestUser(agentId);
  const agent = `Bearer ${app.jwt.sign({ sub: agentId, wid: owner.userId, role: 'agent', jti: randomUUID(), ims: Date.now() })}`;
  t.equal((await preview(30, agent)).statusCode, 403, 'an agent may not change retention, nor ask this');
  t.equal((await preview(30, signToken(app, owner.userId, ['analytics:read']).authorization)).statusCode, 403, 'a personal token never reaches it');
});
