import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { linkedUser, until, whatsappApp } from './support/harness.js';

const ANA_PN = '34600111222@s.whatsapp.net';
const platform = await createTestPlatform(t);

const sample = async (series: string) => {
  const line = (await platform.metrics.text()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

t.test('a send given up after its retries is counted as failed; accounts by state, with no phone or chat in a label', async (t) => {
  const h = await whatsappApp(t, platform);
  const u = await linkedUser(h);
  t.equal(await sample('asistente_whatsapp_sends_failed_total{process="test"}'), 0);
  u.socket().failSends = 3;
  const sent = await u.call('POST', '/whatsapp/messages', { jid: ANA_PN, type: 'text', text: 'No llegará' });
  t.equal(sent.status, 201);
  await until(async () => (await sample('asistente_whatsapp_sends_failed_total{process="test"}')) === 1, 'given up as failed');
  const [row] = await platform.db.sql<{ status: string }[]>`select status from whatsapp.messages where id = ${sent.body.id as string}`;
  t.equal(row?.status, 'failed');
  t.equal(await sample('asistente_whatsapp_accounts{state="connected",process="test"}'), 1);
  t.equal(await sample('asistente_whatsapp_accounts_down{process="test"}'), 0);
  const text = await platform.metrics.text();
  t.notMatch(text, /34600111222|s\.whatsapp\.net/, 'no phone or chat in any label');
  t.notMatch(text, u.userId, 'no user id in any label');
});
