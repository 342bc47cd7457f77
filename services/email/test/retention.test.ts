import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, createLogger, eraseOlderData, PeriodicJob, type RetentionReport } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import emailService from '../src/app.js';
import { EMAIL_RETENTION_STEPS } from '../src/domain/retention.repository.js';

const platform = await createTestPlatform(t, { nats: true });
const app = await buildServiceApp(t, emailService, platform);
const sql = platform.db.sql;
const log = createLogger('silent', 'test');
const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-30T02:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A mailbox that is not connected (nothing syncs it) and its mails: bodies, a preview, one attachment each. */
async function mailbox(userId: string, mails: { folder: string; days: number }[]): Promise<string[]> {
  const [account] = await sql<{ id: string }[]>`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected)
    values (${userId}, 'imap', ${`${randomUUID()}@ejemplo.es`}, 'imap.ejemplo.es', 993, true, 'ana', 'smtp.ejemplo.es', 465, true, 'ana', 'v1:k:iv:ct:tag', false)
    returning id`;
  const ids: string[] = [];
  for (const [uid, mail] of mails.entries()) {
    const [row] = await sql<{ id: string }[]>`
      insert into email.messages (user_id, account_id, folder, uid, message_id, from_addr, to_addrs, subject, text_body, html_body, preview, has_attachments, sent_at)
      values (${userId}, ${account!.id}, ${mail.folder}, ${uid + 1}, ${`<${randomUUID()}@ejemplo.es>`}, 'cliente@ejemplo.es', 'ana@ejemplo.es',
              ${`Presupuesto ${uid}`}, 'Mis datos: DNI 12345678Z', '<p>Mis datos: DNI 12345678Z</p>', 'Mis datos: DNI…', true, ${daysAgo(mail.days)})
      returning id`;
    await sql`insert into email.attachments (message_id, position, name, content_type, size, content) values (${row!.id}, 0, 'dni.pdf', 'application/pdf', 3, ${Buffer.from('pdf')})`;
    ids.push(row!.id);
  }
  return ids;
}

interface MailRow {
  id: string;
  subject: string;
  fromAddr: string;
  textBody: string;
  htmlBody: string | null;
  preview: string;
  bodyFetched: boolean;
  attachments: string;
}
const mails = async (userId: string) =>
  sql<MailRow[]>`
    select m.id, m.subject, m.from_addr, m.text_body, m.html_body, m.preview, m.body_fetched,
           (select count(*) from email.attachments a where a.message_id = m.id) as attachments
    from email.messages m where m.user_id = ${userId} order by m.uid`;

const job = (reports: RetentionReport[]) =>
  new PeriodicJob(sql, { name: `test.email.retention.${randomUUID()}`, log, now: () => NOW }, async (run) => {
    reports.push(await eraseOlderData(sql, 'email.retention', run, EMAIL_RETENTION_STEPS, 2));
  });

t.test('older mails lose their body, preview and stored attachments and keep their headers; drafts, newer mails and other owners stay', async (t) => {
  const [ana, luis] = [randomUUID(), randomUUID()];
  const event = createEvent('account.retention.changed', ana, { whatsappDays: null, emailBodyDays: 30, aiRunDays: null });
  await sql.begin((tx) => platform.outbox('auth').append(tx, [event]));
  await waitFor(async () => (await sql`select 1 from email.retention where user_id = ${ana} and days = 30`).length === 1, "ana's copy");
  const anaMails = await mailbox(ana, [
    { folder: 'inbox', days: 40 },
    { folder: 'inbox', days: 31 },
    { folder: 'sent', days: 90 },
    { folder: 'drafts', days: 60 },
    { folder: 'inbox', days: 5 },
  ]);
  await mailbox(luis, [{ folder: 'inbox', days: 400 }]);

  const reports: RetentionReport[] = [];
  t.equal(await job(reports).runOnce(), 'ran');
  t.same(reports[0]!.erased, { bodies: 3 });
  t.equal(reports[0]!.statements, 2, 'batches of 2: 2, then 1');
  const rows = await mails(ana);
  t.same(rows.map((r) => r.id), anaMails, 'every row stays');
  for (const old of rows.slice(0, 3)) {
    t.match(old, { subject: /Presupuesto/, fromAddr: 'cliente@ejemplo.es', textBody: '', htmlBody: null, preview: '', bodyFetched: false, attachments: '0' });
  }
  t.match(rows[3], { textBody: 'Mis datos: DNI 12345678Z', attachments: '1' }, 'the draft stays whole');
  t.match(rows[4], { textBody: 'Mis datos: DNI 12345678Z', preview: 'Mis datos: DNI…', bodyFetched: true, attachments: '1' }, 'the recent mail stays whole');
  t.match((await mails(luis))[0], { textBody: 'Mis datos: DNI 12345678Z', attachments: '1' }, 'another owner keeps everything');

  const again: RetentionReport[] = [];
  await job(again).runOnce();
  t.same(again[0]!.erased, { bodies: 0 }, 'an emptied mail is not touched again');
});

t.test('GET /emails/retention/preview counts the mails whose body a shorter retention would empty: drafts and newer ones not', async (t) => {
  const me = signToken(app);
  const [old, draft, recent] = await mailbox(me.userId, [
    { folder: 'inbox', days: 1 },
    { folder: 'drafts', days: 1 },
    { folder: 'inbox', days: 1 },
  ]);
  await sql`update email.messages set sent_at = now() - interval '40 days' where id in ${sql([old!, draft!])}`;
  await sql`update email.messages set sent_at = now() - interval '2 days' where id = ${recent!}`;
  const res = await app.inject({ url: '/emails/retention/preview?days=30', headers: { authorization: me.authorization } });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { days: 30, count: 1 });
  t.match((await mails(me.userId)).map((m) => m.textBody), ['Mis datos: DNI 12345678Z', 'Mis datos: DNI 12345678Z', 'Mis datos: DNI 12345678Z'], 'nothing emptied');
});
