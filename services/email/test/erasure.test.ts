import { randomUUID } from 'node:crypto';
import t from 'tap';
import { createEvent, type App, type EventEnvelope } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { createEmailService } from '../src/app.js';
import type { SyncManager } from '../src/domain/sync-manager.js';
import { startDovecot } from './fixtures/dovecot.js';
import { eventually } from './fixtures/imap-peer.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

/**
 * "Eliminar mi cuenta" in email: the mailbox's sync and IDLE connection is closed by the replica that holds
 * it (told through the lease's NOTIFY when the erasure runs on another), and every row of the user goes.
 */
const EMAIL = 'rosa@example.com';
const PASSWORD = 'clave-compartida';
const dovecot = await startDovecot({ users: [{ user: EMAIL, password: PASSWORD }] });
t.teardown(() => dovecot.stop());
const smtp = await startSmtpPeer({ users: { [EMAIL]: PASSWORD } });
t.teardown(() => smtp.close());
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const sql = platform.db.sql;
const twoReplicas = Boolean(process.env.DATABASE_URL);

async function replica(): Promise<{ app: App; sync: SyncManager }> {
  let sync: SyncManager | undefined;
  const app = await buildServiceApp(t, createEmailService({ onSync: (s) => (sync = s) }), platform);
  return { app, sync: sync! };
}

t.test(`the IDLE connection is closed and the mailbox erased (${twoReplicas ? 'erased by the replica that does not hold it' : 'one process'})`, async (t) => {
  const holder = await replica();
  // Built second, its erasure consumer is the one the in-process bus delivers to.
  const other = twoReplicas ? await replica() : holder;
  const userId = randomUUID();
  const { authorization } = signToken(holder.app, userId);
  const connected = await holder.app.inject({
    method: 'POST',
    url: '/emails/integrations',
    headers: { authorization },
    payload: {
      provider: 'imap',
      credentials: {
        email: EMAIL,
        imap: { host: dovecot.host, port: dovecot.port, secure: false, user: EMAIL, password: PASSWORD },
        smtp: { host: smtp.host, port: smtp.port, secure: false, user: EMAIL, password: PASSWORD },
      },
    },
  });
  t.equal(connected.statusCode, 201, connected.body);
  const accountId = connected.json<{ id: string }>().id;
  await eventually('the holder watches the mailbox', async () => holder.sync.holds(accountId));
  t.notOk(twoReplicas && other.sync.holds(accountId), 'the other replica does not');

  const reports: EventEnvelope[] = [];
  await platform.bus.subscribe('erasure-probe', async (events) => {
    reports.push(...events.filter((e) => e.type === 'account.erasure.progressed'));
  });
  await sql.begin((tx) => platform.outbox('auth').append(tx, [createEvent('user.deleted', userId, { deletionId: randomUUID() })]));
  await eventually('email reported done', async () => reports.some((e) => (e.data as { status: string }).status === 'done'));
  await eventually('the holder closed the connection', async () => !holder.sync.holds(accountId));
  const [row] = await sql<{ n: string }[]>`
    select (select count(*) from email.accounts where user_id = ${userId}) + (select count(*) from email.messages where user_id = ${userId})
         + (select count(*) from email.login_failures where key = ${`user:${userId}`}) as n`;
  t.equal(Number(row!.n), 0, 'nothing of the user left');
  t.same((reports.find((e) => (e.data as { status: string }).status === 'done')!.data as { problems: string[] }).problems, [], 'no provider problem');
});
