import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { App } from '@asistente/kit';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import { createEmailService, type EmailServiceOptions } from '../src/app.js';
import type { SyncManager } from '../src/domain/sync-manager.js';
import { startDovecot } from './fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from './fixtures/imap-peer.js';
import { startSmtpPeer } from './fixtures/smtp-peer.js';

/**
 * Issue 22: each mailbox's sync and IDLE held by one email replica at a time through a lease in PostgreSQL,
 * any replica serving the API, a killed holder's accounts resumed by another, and sends made once per
 * Idempotency-Key whichever replica gets each attempt.
 */
const USERS = { ana: 'ana@example.com', luis: 'luis@example.com' };
const PASSWORD = 'clave-compartida';
/** The reason the two-replica cases are skipped, or false when they run. */
const ONE_REPLICA_ONLY = process.env.DATABASE_URL
  ? false
  : 'two replicas need PostgreSQL (the embedded database has one replica, one connection and no notifications)';

const dovecot = await startDovecot({ users: Object.values(USERS).map((user) => ({ user, password: PASSWORD })) });
t.teardown(() => dovecot.stop());
const smtp = await startSmtpPeer({ users: Object.fromEntries(Object.values(USERS).map((user) => [user, PASSWORD])) });
t.teardown(() => smtp.close());
const platform = await createTestPlatform(t, { config: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
const sql = platform.db.sql;

interface Replica {
  app: App;
  sync: SyncManager;
}

async function replica(options: EmailServiceOptions = {}): Promise<Replica> {
  let sync: SyncManager | undefined;
  const app = await buildServiceApp(t, createEmailService({ ...options, onSync: (s) => (sync = s) }), platform);
  return { app, sync: sync! };
}

/** One user's calls to one replica (tokens are the platform's: any replica accepts them). */
function as(r: Replica, userId: string) {
  const { authorization } = signToken(r.app, userId);
  return async <T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) => {
    const response = await r.app.inject({ method, url, headers: { authorization, ...headers }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json<T>() };
  };
}

const connectBody = (email: string) => ({
  provider: 'imap',
  credentials: {
    email,
    imap: { host: dovecot.host, port: dovecot.port, secure: false, user: email, password: PASSWORD },
    smtp: { host: smtp.host, port: smtp.port, secure: false, user: email, password: PASSWORD },
  },
});

interface Listed {
  data: { id: string; subject: string; isRead: boolean }[];
}

async function subjects(call: ReturnType<typeof as>, folder: string): Promise<Listed['data']> {
  return (await call<Listed>('GET', `/emails?folder=${folder}&limit=100`)).body.data;
}

/** Rows of one account that hold the same mail (by Message-ID) more than once, in any folder. */
async function storedTwice(): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from (
      select account_id, folder, message_id from email.messages where message_id is not null
      group by 1, 2, 3 having count(*) > 1) d`;
  return row!.n;
}

async function leaseOwner(accountId: string): Promise<string | null> {
  const [row] = await sql<{ leaseOwner: string | null }[]>`select lease_owner from email.accounts where id = ${accountId}`;
  return row?.leaseOwner ?? null;
}

const phones = await Promise.all(Object.values(USERS).map((user) => otherMailApp(dovecot.host, dovecot.port, user, PASSWORD)));
t.teardown(async () => {
  for (const phone of phones) {
    await phone.logout().catch(() => {});
    phone.close();
  }
});
const [anaPhone, luisPhone] = phones as [(typeof phones)[0], (typeof phones)[0]];
await anaPhone.append('INBOX', rawMail({ from: 'marta@cliente.com', to: USERS.ana, subject: 'Antes de conectar', body: 'Hola', messageId: `<${randomUUID()}@cliente.com>` }));
await luisPhone.append('INBOX', rawMail({ from: 'marta@cliente.com', to: USERS.luis, subject: 'Antes de conectar', body: 'Hola', messageId: `<${randomUUID()}@cliente.com>` }));

// Embedded, one process holds everything: one replica for the whole file (a second would take its leases).
const embedded = ONE_REPLICA_ONLY ? await replica() : undefined;

t.test('embedded: the one process holds every mailbox, with no one to hand it to', { skip: embedded ? false : 'covered by the two-replica cases' }, async (t) => {
  const only = embedded!;
  const userId = randomUUID();
  const call = as(only, userId);
  const connected = await call<{ id: string }>('POST', '/emails/integrations', connectBody(USERS.ana));
  t.equal(connected.status, 201);
  await eventually('the first sync', async () => (await subjects(call, 'inbox')).some((m) => m.subject === 'Antes de conectar'));
  t.ok(only.sync.holds(connected.body.id), 'watched by the only replica');
  t.equal(await leaseOwner(connected.body.id), only.sync.owner);
  t.equal(await storedTwice(), 0);
});

t.test('two replicas on one database', { skip: ONE_REPLICA_ONLY }, async (t) => {
  const a = await replica();
  const b = await replica();
  const ana = randomUUID();
  const luis = randomUUID();
  const anaOnA = as(a, ana);
  const anaOnB = as(b, ana);
  const luisOnA = as(a, luis);
  const luisOnB = as(b, luis);

  // Each account connected through a different replica: each is held by the one that connected it.
  const anaAccount = (await anaOnA<{ id: string }>('POST', '/emails/integrations', connectBody(USERS.ana))).body.id;
  const luisAccount = (await luisOnB<{ id: string }>('POST', '/emails/integrations', connectBody(USERS.luis))).body.id;
  await eventually('both first syncs', async () => {
    const [first, second] = await Promise.all([subjects(anaOnB, 'inbox'), subjects(luisOnA, 'inbox')]);
    return first.length === 1 && second.length === 1;
  });

  await t.test('each account is synced by exactly one replica', async (t) => {
    t.ok(a.sync.holds(anaAccount) && !b.sync.holds(anaAccount), "A holds Ana's mailbox, B does not");
    t.ok(b.sync.holds(luisAccount) && !a.sync.holds(luisAccount), "B holds Luis's mailbox, A does not");
    t.equal(await leaseOwner(anaAccount), a.sync.owner);
    t.equal(await leaseOwner(luisAccount), b.sync.owner);
  });

  await t.test('two syncs of one mailbox at once (a lease changing hands) store each mail once', async (t) => {
    for (let i = 0; i < 5; i++) {
      await anaPhone.append('INBOX', rawMail({ from: 'luis@cliente.com', to: USERS.ana, subject: `Carrera ${i}`, body: 'x', messageId: `<carrera-${i}-${randomUUID()}@cliente.com>` }));
    }
    const account = (await a.sync.account(anaAccount))!;
    await Promise.all([a.sync.syncNow(account), b.sync.syncNow(account), a.sync.syncNow(account)]);
    const races = (await subjects(anaOnB, 'inbox')).filter((m) => m.subject.startsWith('Carrera'));
    t.equal(races.length, 5, 'five mails, five rows');
    t.equal(await storedTwice(), 0, 'no mail stored twice');
    const [events] = await sql<{ n: number }[]>`
      select count(*)::int as n from email.outbox where type = 'email.message.received' and data->>'messageId' = any(${races.map((m) => m.id)}::text[])`;
    t.equal(events!.n, 5, 'one "received" event per mail');
  });

  await t.test('the holder killed without releasing: the other replica resumes its mailbox within 30 s', async (t) => {
    const killedAt = Date.now();
    await a.sync.halt();
    t.equal(await leaseOwner(anaAccount), a.sync.owner, 'the dead replica left its lease behind');
    await anaPhone.append('INBOX', rawMail({ from: 'luis@cliente.com', to: USERS.ana, subject: 'Mientras tanto', body: 'Llegó sin nadie', messageId: `<tanto-${randomUUID()}@cliente.com>` }));
    await eventually('B holds the account and the mail arrived', async () => b.sync.holds(anaAccount) && (await subjects(anaOnB, 'inbox')).some((m) => m.subject === 'Mientras tanto'), 40_000);
    const resumedMs = Date.now() - killedAt;
    const twice = await storedTwice();
    t.comment(`replicas mail: account resumed by the other replica in ${resumedMs} ms, ${twice} mails stored twice`);
    t.ok(resumedMs < 30_000, `resumed in ${resumedMs} ms`);
    t.equal((await subjects(anaOnB, 'inbox')).filter((m) => m.subject === 'Mientras tanto').length, 1, 'the mail arrived once');
    t.equal(twice, 0);
    t.equal(await leaseOwner(anaAccount), b.sync.owner);

    // IDLE runs on B now: a mail appended later shows without anyone asking.
    await anaPhone.append('INBOX', rawMail({ from: 'luis@cliente.com', to: USERS.ana, subject: 'Ya en B', body: 'x', messageId: `<b-${randomUUID()}@cliente.com>` }));
    await eventually('the IDLE of B', async () => (await subjects(anaOnB, 'inbox')).some((m) => m.subject === 'Ya en B'));
  });

  await t.test('a graceful stop releases the leases: a new replica takes over at its first tick', async (t) => {
    const c = await replica({ lease: { ttlMs: 20_000, tickMs: 200 } });
    await b.app.close();
    await eventually('C holds both', async () => c.sync.holds(anaAccount) && c.sync.holds(luisAccount), 5_000);
    t.equal(await leaseOwner(luisAccount), c.sync.owner);

    // Replica D serves the API of mailboxes C holds: flags, moves and drafts stay one story on both.
    const d = await replica();
    const onC = as(c, luis);
    const onD = as(d, luis);
    for (const subject of ['Leer', 'Borrar', 'Quedar']) {
      await luisPhone.append('INBOX', rawMail({ from: 'marta@cliente.com', to: USERS.luis, subject, body: subject, messageId: `<${subject}-${randomUUID()}@cliente.com>` }));
    }
    const inbox = await eventually('the three mails on D', async () => {
      const list = await subjects(onD, 'inbox');
      return ['Leer', 'Borrar', 'Quedar'].every((s) => list.some((m) => m.subject === s)) && list;
    });
    const id = (subject: string) => inbox.find((m) => m.subject === subject)!.id;

    t.equal((await onD('PUT', `/emails/${id('Leer')}/read`)).status, 200, 'read through the replica that does not hold the mailbox');
    t.equal((await onD('DELETE', `/emails/${id('Borrar')}`)).status, 200, 'moved to Trash through it');
    const first = await onD<{ id: string }>('POST', '/emails/drafts', { to: 'marta@cliente.com', subject: 'Borrador 1', body: 'Primera versión' });
    t.equal(first.status, 200);
    const second = await onC<{ id: string }>('POST', '/emails/drafts', { to: 'marta@cliente.com', subject: 'Borrador 2', body: 'Segunda versión', draftId: first.body.id });
    t.equal(second.status, 200, 'the draft continued on the holder');

    const consistent = async (call: ReturnType<typeof as>) => {
      const [now, trash, drafts] = await Promise.all([subjects(call, 'inbox'), subjects(call, 'trash'), subjects(call, 'drafts')]);
      return (
        now.find((m) => m.subject === 'Leer')?.isRead === true &&
        !now.some((m) => m.subject === 'Borrar') &&
        trash.filter((m) => m.subject === 'Borrar').length === 1 &&
        drafts.length === 1 &&
        drafts[0]!.subject === 'Borrador 2'
      );
    };
    await eventually('both replicas agree', async () => (await consistent(onC)) && (await consistent(onD)));
    // A sync of every folder on the holder reads the server again and keeps the same story.
    const account = (await c.sync.account(luisAccount))!;
    await c.sync.syncNow(account);
    t.ok((await consistent(onC)) && (await consistent(onD)), 'the server agrees with both');
    const lock = await luisPhone.getMailboxLock('Drafts');
    try {
      t.equal(luisPhone.mailbox === false ? -1 : luisPhone.mailbox.exists, 1, 'one draft on the server');
    } finally {
      lock.release();
    }
    t.equal(await storedTwice(), 0, 'no row duplicated');
    t.equal((await onC('GET', `/emails/${second.body.id}`)).status, 200, 'the draft opens on the holder');
    t.equal((await onD('GET', `/emails/${id('Quedar')}`)).status, 200, 'a mail opens on the other replica');
  });
});

t.test('sends: one mail at the SMTP server per Idempotency-Key, whichever replica gets each attempt', async (t) => {
  const replicas = embedded ? [embedded] : [await replica(), await replica()];
  const userId = randomUUID();
  const calls = replicas.map((r) => as(r, userId));
  const at = (i: number) => calls[i % calls.length]!;
  t.equal((await at(0)('POST', '/emails/integrations', connectBody(USERS.ana))).status, 201);
  const tag = randomUUID().slice(0, 8);

  const N = 20;
  const latencies: number[] = [];
  for (let i = 0; i < N; i++) {
    const key = `envio-${tag}-${i}`;
    const body = { to: 'cliente@example.org', subject: `Envío ${tag} ${i}`, body: `Mensaje ${i}`, track: false };
    const before = smtp.received.length;
    const accepted = Date.now();
    const sent = await at(i)<{ messageId: string }>('POST', '/emails/send', body, { 'idempotency-key': key });
    t.equal(sent.status, 200);
    const mail = await smtp.waitFor(before + 1);
    latencies.push(mail.at - accepted);
    // The client did not see the answer and retries, on the other replica.
    const retried = await at(i + 1)<{ messageId: string }>('POST', '/emails/send', body, { 'idempotency-key': key });
    t.same(retried.body, sent.body, 'the retry answers the first send');
  }

  // Two attempts with one key at once, on both replicas: one send, one answer.
  const body = { to: 'cliente@example.org', subject: `Envío ${tag} a la vez`, body: 'Una vez', track: false };
  const both = await Promise.all([0, 1].map((i) => at(i)<{ messageId: string }>('POST', '/emails/send', body, { 'idempotency-key': `envio-${tag}-doble` })));
  t.same(both.map((r) => r.status), [200, 200]);
  t.equal(both[0]!.body.messageId, both[1]!.body.messageId, 'both attempts answer the same send');

  const reused = await at(0)('POST', '/emails/send', { ...body, body: 'Otro' }, { 'idempotency-key': `envio-${tag}-doble` });
  t.equal(reused.status, 422, 'a key used for another request is refused');
  t.match(reused.body, { code: 'IDEMPOTENCY_KEY_REUSED' });

  const mine = await eventually('every send at the peer', async () => {
    const list = smtp.received.filter((m) => m.parsed.subject?.startsWith(`Envío ${tag}`));
    return list.length >= N + 1 && list;
  });
  const distinct = new Set(mine.map((m) => m.parsed.messageId)).size;
  const duplicated = mine.length - distinct;
  const sorted = [...latencies].sort((x, y) => x - y);
  const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1]!;
  t.comment(`replicas mail-sends: ${N + 1} sends, ${distinct} delivered, ${duplicated} duplicated, p95 accept to SMTP ${p95} ms`);
  t.equal(distinct, N + 1, 'every send delivered');
  t.equal(duplicated, 0, 'none twice');
});
