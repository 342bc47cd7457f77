import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { seedDemo, DEMO_ACCOUNT } from '../src/demo/seed-demo.js';
import { buildGateway } from '../src/gateway.js';

t.test('the demo account gets contacts and 90 days of activity through the real pipeline', async (t) => {
  const platform = await createTestPlatform(t);
  const app = await buildGateway(platform, 'embedded');
  await app.ready();
  t.teardown(() => app.close());

  const demo = await seedDemo(app, platform);
  t.equal(demo.created, true);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password } });
  t.equal(login.statusCode, 200, 'the printed credentials work');
  const headers = { authorization: `Bearer ${login.json().token}` };
  const get = async (url: string) => (await app.inject({ url, headers })).json();

  const stats = await get('/api/contacts/stats');
  t.ok(stats.total >= 250 && stats.total <= 320, `a few hundred contacts (${stats.total})`);
  t.ok(stats.companies > 10 && stats.tags > 3);

  const dashboard = await get('/api/analytics/dashboard?period=90d');
  t.equal(dashboard.totalContacts, stats.total, 'analytics counts the same contacts');
  t.ok(dashboard.totalEmails > 500 && dashboard.totalMessages > 500 && dashboard.totalEvents > 20, JSON.stringify(dashboard));
  const activity = await get('/api/analytics/activity?period=90d');
  t.equal(activity.length, 90);
  t.ok(activity.filter((p: { activity: number }) => p.activity > 0).length >= 80, 'activity on nearly every day');
  const growth = await get('/api/analytics/contacts-growth?period=90d');
  t.ok(growth[0].contacts < growth.at(-1).contacts, 'contacts grow over the quarter');
  const mail = await get('/api/analytics/emails?period=30d');
  t.ok(mail.opened > 0 && mail.opened < mail.sent && mail.clicked < mail.opened);
  const whatsapp = await get('/api/analytics/whatsapp?period=30d');
  t.ok(whatsapp.autoReplies > 0 && whatsapp.contacts > 10);
  const [parked] = await platform.db.sql<{ n: string }[]>`select count(*) as n from analytics.parked_events`;
  t.equal(Number(parked!.n), 0, 'every demo event is valid');

  const again = await seedDemo(app, platform);
  t.equal(again.created, false, 'seeding twice leaves the account as it is');
  t.equal((await get('/api/contacts/stats')).total, stats.total);
});
