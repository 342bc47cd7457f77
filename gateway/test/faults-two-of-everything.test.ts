import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { generateKey } from '@asistente/kit';
import { createTestDatabase, takeServerTurn } from '@asistente/kit/testing';
import { ROUTES } from '../src/routing-table.js';
import { AiLoad, QUIET_MS } from './faults/ai-load.js';
import { DOVECOT, MailLoad, listedSubjects, type Call } from './faults/mail-load.js';
import { DATABASE_URL, NATS_URL, OwnNats, freePort, kill, migrateDatabase, root, startNode, userWithToken, waitFor, waitReady, waitUntilDrained, type Proc } from './faults/support.js';

/**
 * Two replicas of every service behind the gateway, under a steady mix of writes: contacts created,
 * WhatsApp sends, incoming WhatsApp messages answered by a keyword rule or, when none matches, by the AI
 * assistant (an OpenAI peer in this process), mails sent with an Idempotency-Key and mails arriving in the
 * mailbox (Dovecot and smtp-server peers), every event counted by analytics. One replica of each service is
 * SIGKILLed in turn (the ai replica while it answers a burst, the email replica holding the mailbox's lease),
 * then NATS is down for 10 s (a nats-server of the test's own), then every database connection is terminated
 * once. Nothing written is lost or applied twice, and the gateway stays ready while one replica of each
 * service lives.
 */
const SKIP =
  !DATABASE_URL || !NATS_URL
    ? 'DATABASE_URL and NATS_URL are not set: runs two replicas of every service as processes on PostgreSQL and NATS (CI second pass)'
    : !OwnNats.available()
      ? 'no /usr/sbin/nats-server here (the test kills a NATS of its own)'
      : !MailLoad.available()
        ? `no ${DOVECOT} here (the mailbox is a Dovecot of the test's own)`
        : false;
// Nineteen processes hold about 70 of the server's 100 connections: no other fleet runs meanwhile. On two
// busy cores beside the other test files the file takes over tap's usual 300 s, although every wait in it
// is for a state.
if (!SKIP) await takeServerTurn(t, 'alone', 600_000);
const REPLICAS = 2;
const NATS_DOWN_MS = 10_000;
const KEYWORD = 'horario';
const ANSWER = 'Abrimos de 9 a 18 h';
const SEND_JID = '34611222333@s.whatsapp.net';
/** Bursts waiting for their AI answer, and mails appended but not yet synced, at most: the load follows the service. */
const AI_IN_FLIGHT = 3;
const MAILS_IN_FLIGHT = 5;
/** A killed lease holder's mailbox is resumed by the other replica within the lease (20 s) and a tick (5 s). */
const MAIL_RESUME_MS = 30_000;

interface Replica {
  service: string;
  proc: Proc;
  port: number;
  url: string;
  /** The fake phone's control port (whatsapp only). */
  control?: string;
}

t.test('two replicas of everything under load: one of each killed, NATS down, connections cut; 0 lost, 0 duplicated', { skip: SKIP, timeout: 560_000 }, async (t) => {
  const nats = await OwnNats.start(t);
  const mail = await MailLoad.start(t);
  const ai = await AiLoad.start(t);
  const dir = mkdtempSync(path.join(tmpdir(), 'two-of-everything-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const phoneLog = path.join(dir, 'phone.jsonl');
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  await migrateDatabase(t, database.url!);
  const suffix = randomBytes(4).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const common = {
    DATABASE_URL: database.url!,
    NATS_URL: nats.url,
    NATS_STREAM: `TWO_${suffix}`,
    EVENTS_SUBJECT_PREFIX: `two${suffix}`,
    JWT_SECRET: secret,
    SECRETS_KEYS: `k1:${generateKey()}`,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    // Seventeen processes on one PostgreSQL (max_connections 100 by default, shared with other tests).
    DB_POOL_MAX: '3',
    WHATSAPP_AUTOMATED_GAP_MS: '20',
    WHATSAPP_TEST_SOCKET_MODULE: root('web/test/fixtures/whatsapp-fake-phone.mjs'),
    WHATSAPP_FAKE_SENT_LOG: phoneLog,
  };
  // What one service alone needs: the mail peers are on loopback, the model is the peer.
  const own: Record<string, Record<string, string>> = { email: { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' }, ai: { OPENAI_BASE_URL: ai.peer.url } };

  // Every process gets every replica's URL (services call each other), so the ports come first.
  const replicas: Replica[] = [];
  for (const route of ROUTES) {
    for (let i = 0; i < REPLICAS; i++) {
      const port = await freePort();
      const control = route.name === 'whatsapp' ? `http://127.0.0.1:${await freePort()}` : undefined;
      replicas.push({ service: route.name, proc: undefined as unknown as Proc, port, url: `http://127.0.0.1:${port}`, ...(control ? { control } : {}) });
    }
  }
  const urls = Object.fromEntries(ROUTES.map((r) => [r.urlVariable, replicas.filter((x) => x.service === r.name).map((x) => x.url).join(',')]));
  for (const [i, replica] of replicas.entries()) {
    const phone: Record<string, string> = replica.control ? { WHATSAPP_FAKE_CONTROL_PORT: new URL(replica.control).port } : {};
    replica.proc = startNode(t, `${replica.service}-${(i % REPLICAS) + 1}`, `services/${replica.service}/dist/server.js`, { ...common, ...urls, ...phone, ...own[replica.service], PORT: String(replica.port) });
  }
  const gatewayPort = await freePort();
  const gatewayProc = startNode(t, 'gateway', 'gateway/dist/main.js', { ...common, ...urls, PORT: String(gatewayPort) });
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  await Promise.all([...replicas.map((r) => waitReady(r.proc, r.port, 240_000)), waitReady(gatewayProc, gatewayPort, 240_000)]);

  const { userId, authorization } = await userWithToken(database.url!, secret);
  const call: Call = (method, url, body, headers = {}) =>
    fetch(`${gateway}/api${url}`, { method, headers: { authorization, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
      () => ({ status: 0, body: '' }),
    );
  const whatsapps = replicas.filter((r) => r.service === 'whatsapp');
  const live = (service: string) => replicas.filter((r) => r.service === service && r.proc.child.exitCode === null && r.proc.child.signalCode === null);
  /** The live replica of `service` whose process id is in `holder` (leases name `<host>:<pid>:<random>`). */
  const holding = (service: string, holder: string | null | undefined) => live(service).find((r) => holder?.split(':')[1] === String(r.proc.child.pid));
  const control = (replica: Replica, what: string, body: object = {}) =>
    fetch(`${replica.control}${what}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status, () => 0);
  /** The whatsapp replica whose fake phone has a live socket: the lease owner. */
  const owner = async () => {
    for (const replica of whatsapps) if (replica.proc.child.exitCode === null && (await control(replica, '/message')) === 200) return replica;
    return undefined;
  };

  // Linked once, before the load: connect (a QR), the phone scans, the owner's socket opens.
  t.equal((await call('POST', '/whatsapp/auto-replies', { keyword: KEYWORD, response: ANSWER })).status, 201, 'a keyword rule');
  t.equal((await call('POST', '/whatsapp/connect')).status, 200, 'connect answers with a QR');
  await waitFor('the QR on a replica', async () => (await Promise.all(whatsapps.map((r) => control(r, '/scan')))).includes(200));
  await waitFor('WhatsApp connected', async () => JSON.parse((await call('GET', '/whatsapp/status')).body).state === 'connected');
  t.same(await ai.configure(call), [200, 200], 'an OpenAI key and the assistant answering WhatsApp customers');

  const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  const count = async (query: Promise<{ n: string }[]>) => Number((await query)[0]!.n);

  // The mailbox connected through the gateway; one email replica takes its lease and syncs it.
  t.equal((await call('POST', '/emails/integrations', mail.account)).status, 201, 'an IMAP/SMTP account connected');
  const mailHolder = async () => (await sql<{ leaseOwner: string | null }[]>`select lease_owner as "leaseOwner" from email.accounts where user_id = ${userId}`)[0]?.leaseOwner;
  await waitFor('an email replica holding the mailbox', async () => holding('email', await mailHolder()) !== undefined);
  const storedMails = () => count(sql`select count(*) as n from email.messages where user_id = ${userId} and folder = 'inbox'`);
  const aiAnswered = () => count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and origin = 'ai'`);

  // The load: each writer awaits its answer before the next; a write's outcome is counted by its status.
  let phase = 'before';
  const tally = { contacts: 0, contactsCut: 0, sends: [] as string[], sendsCut: [] as string[], incoming: 0, failures: [] as string[] };
  /** Each failed write as it went: the phase it started in, how long it took, what the gateway answered. */
  const failureDetails: string[] = [];
  const at = () => ({ phase, since: Date.now() });
  const failed = (what: string, res: { status: number; body: string }, started: { phase: string; since: number }) => {
    tally.failures.push(`${phase} ${what} ${res.status}`);
    failureDetails.push(`${what} ${res.status} started in ${started.phase}, ended in ${phase} after ${Date.now() - started.since} ms: ${res.body.slice(0, 200)}`);
  };
  let running = true;
  let incomingOn = true;
  /** Messages being given to the phone right now (none while the socket's owner is about to be killed). */
  let giving = 0;
  let n = 0;
  /** A customer message given to the owner's phone, unless the owner is about to be killed. */
  const giveToPhone = async (from: string, text: string) => {
    if (!incomingOn) return false;
    giving++;
    try {
      const at = await owner();
      return at !== undefined && (await control(at, '/message', { from, text, name: 'Cliente' })) === 200;
    } finally {
      giving--;
    }
  };
  /** Paces a writer on the service's progress (not on time); gives up when the load stops. */
  const until = async (condition: () => Promise<boolean>) => {
    while (running && !(await condition().catch(() => false))) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  const writers = [
    async () => {
      const i = n++;
      const started = at();
      const res = await call('POST', '/contacts', { firstName: `Doble${i}`, lastName: 'Réplica', email: `doble${i}@ejemplo.es` });
      if (res.status === 201) return void tally.contacts++;
      tally.contactsCut++;
      failed('POST /contacts', res, started);
    },
    async () => {
      const text = `Envío ${n++}`;
      const started = at();
      const res = await call('POST', '/whatsapp/messages', { jid: SEND_JID, type: 'text', text });
      if (res.status === 201) return void tally.sends.push(text);
      tally.sendsCut.push(text);
      failed('POST /whatsapp/messages', res, started);
    },
    async () => {
      if (!incomingOn) return void (await new Promise((resolve) => setTimeout(resolve, 50)));
      const from = `3460${String(100_000 + n++).padStart(7, '0')}@s.whatsapp.net`;
      if (await giveToPhone(from, `¿Qué ${KEYWORD} tenéis?`)) tally.incoming++;
    },
    // A customer whose line no keyword rule answers: the assistant answers the burst after its quiet window.
    async () => {
      await until(async () => ai.chats.length - (await aiAnswered()) < AI_IN_FLIGHT);
      if (!incomingOn) return void (await new Promise((resolve) => setTimeout(resolve, 50)));
      const { from, text } = ai.next();
      if (await giveToPhone(from, text)) ai.given(from);
    },
    () => mail.send(call, () => phase, tally.failures),
    async () => {
      await until(async () => mail.appended.length - (await storedMails()) < MAILS_IN_FLIGHT);
      await mail.append(`Entrante ${mail.appended.length}`);
    },
  ];
  const loops = writers.map(async (write) => {
    while (running) await write();
  });
  t.teardown(async () => {
    running = false;
    await Promise.all(loops);
  });

  // /ready polled throughout; a false while one replica of each service lives is a failure.
  const notReady: Record<string, number> = {};
  const notReadyChecks: string[] = [];
  const polling = (async () => {
    while (running) {
      // The checks that failed are kept, so a false names its service (or the database).
      const down = await fetch(`${gateway}/ready`).then(
        async (r) => (r.ok ? undefined : Object.entries(((await r.json()) as { checks: Record<string, string> }).checks).filter(([, v]) => v === 'down').map(([k]) => k).join('+')),
        () => 'no answer',
      );
      if (down !== undefined) {
        notReady[phase] = (notReady[phase] ?? 0) + 1;
        notReadyChecks.push(`${phase}: ${down}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const storedIncoming = () => count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and direction = 'incoming'`);
  const writesSince = async (what: string, min = 20) => {
    const from = tally.contacts + tally.sends.length;
    await waitFor(what, () => tally.contacts + tally.sends.length >= from + min, 120_000);
  };
  await writesSince('writes under way', 40);

  // 1. One replica of each service SIGKILLed in turn (analytics first: its unacknowledged batch comes back
  //    to the other replica after ack_wait, 30 s, while the rest runs). WhatsApp: the socket's owner; no
  //    message is given to its phone meanwhile (a real phone would send again what was never acknowledged).
  phase = 'kills';
  let kills = 0;
  let heldByKilledAi: { conversationId: string }[] = [];
  let aiKilledAt = 0;
  /** How long after the ai kill each burst it held was answered by the other replica. */
  let takenOver: number[] = [];
  /** How long after the email kill the mailbox was synced again (never, if it was not). */
  let mailResumed = Promise.resolve(Number.POSITIVE_INFINITY);
  for (const service of ['analytics', ...ROUTES.map((r) => r.name).filter((s) => s !== 'analytics')]) {
    let victim = replicas.find((r) => r.service === service)!;
    if (service === 'whatsapp') {
      incomingOn = false;
      await waitFor('the messages being given to the phone given', () => giving === 0);
      const sentToPhone = tally.incoming + ai.chats.length;
      await waitFor('incoming messages stored', async () => (await storedIncoming()) >= sentToPhone);
      victim = (await owner())!;
    } else if (service === 'ai') {
      // The replica answering a burst (claimed, its model call under way): the other must take it over.
      await waitFor('an ai replica answering a burst', async () => {
        // A burst is its conversation's in the team inbox.
        const claimed = await sql<{ claimedBy: string; conversationId: string }[]>`
          select claimed_by as "claimedBy", chat_id as "conversationId" from ai.chat_bursts where user_id = ${userId} and claimed_by is not null and claimed_until > now()`;
        const answering = claimed.map((b) => holding('ai', b.claimedBy)).find(Boolean);
        if (!answering) return false;
        victim = answering;
        heldByKilledAi = claimed.filter((b) => holding('ai', b.claimedBy) === answering);
        return true;
      });
    } else if (service === 'email') {
      victim = holding('email', await mailHolder())!;
    }
    await kill(victim.proc);
    kills++;
    if (service === 'ai') {
      aiKilledAt = Date.now();
      // The other replica takes the held bursts over once their lease runs out: answered (handed to WhatsApp,
      // whose own queue may still hold the sends the killed whatsapp replica left) before the next fault.
      // Those conversations' customers, as WhatsApp names their chats (the load's customers are Spanish numbers).
      const handles = await sql<{ handle: string }[]>`
        select handle from inbox.conversations where id = any(${heldByKilledAi.map((b) => b.conversationId)}::uuid[])`;
      const held = handles.map((c) => `${c.handle.slice(1)}@s.whatsapp.net`);
      const answeredHeld = async () =>
        sql<{ at: Date }[]>`select min(sent_at) as at from whatsapp.messages where user_id = ${userId} and origin = 'ai' and to_jid = any(${held}) group by to_jid`;
      await waitFor('the bursts the killed ai replica held answered', async () => (await answeredHeld()).length === held.length, 60_000).catch(() => undefined);
      takenOver = (await answeredHeld()).map((r) => r.at.getTime() - aiKilledAt);
    }
    if (service === 'email') {
      // A mail arriving while no replica holds the mailbox: listed once the other replica takes the lease.
      const killedAt = Date.now();
      const subject = 'Entrante tras la caída del titular';
      await mail.append(subject);
      mailResumed = waitFor(
        'the other email replica resuming the mailbox',
        async () => (await count(sql`select count(*) as n from email.messages where user_id = ${userId} and subject = ${subject}`)) > 0,
        120_000,
      ).then(
        () => Date.now() - killedAt,
        () => Number.POSITIVE_INFINITY,
      );
    }
    if (service === 'whatsapp') {
      // The lease runs out (20 s) and the surviving replica takes the socket over.
      await waitFor('the other replica holding the socket', async () => (await owner()) !== undefined, 60_000);
      incomingOn = true;
    }
    await writesSince(`writes after killing a ${service} replica`);
  }

  // 2. NATS down for 10 s: writes go on, events wait in the outboxes.
  phase = 'nats';
  await nats.kill();
  const downSince = Date.now();
  await waitFor('NATS down for 10 s while writes go on', () => Date.now() - downSince >= NATS_DOWN_MS, 30_000);
  await nats.restart();
  await writesSince('writes after NATS is back');

  // 3. Every database connection of the test's database terminated once.
  phase = 'database';
  const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  t.teardown(() => admin.end());
  const databaseName = new URL(database.url!).pathname.slice(1);
  const pids = (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`).map((r) => r.pid);
  await admin`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`;
  await writesSince('writes after the connections were cut');

  phase = 'after';
  await writesSince('writes with one replica of each', 20);
  running = false;
  await Promise.all(loops);
  await polling;

  // Settle: what was accepted reaches the phone, the SMTP peer, the mail list and analytics (after the killed
  // replicas' unacknowledged events come back, ack_wait 30 s).
  const contactRows = () => count(sql`select count(*) as n from contacts.contacts where user_id = ${userId}`);
  const pendingSends = () => count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and direction = 'outgoing' and status = 'pending'`);
  const counted = async (metric: string) =>
    Number((await sql<{ v: string }[]>`select coalesce(sum(value), 0) as v from analytics.totals where user_id = ${userId} and metric = ${metric}`)[0]!.v);
  const outboxEvents = (schema: 'email' | 'ai', type: string) =>
    count(sql`select count(*) as n from ${sql(schema)}.outbox where user_id = ${userId} and type = ${type}`);
  const givenToPhone = tally.incoming + ai.chats.length;
  // The owner stores what its phone received one batch at a time: the last batches may still be on their way.
  await waitFor('every incoming message stored', async () => (await storedIncoming()) >= givenToPhone, 90_000);
  const incomingRows = await storedIncoming();
  /** A settle wait that times out tells what the service's replicas last logged and where its data stands. */
  const explained = async (services: string[], wait: Promise<void>, state: () => Promise<unknown>) =>
    wait.catch(async (error: Error) => {
      for (const r of replicas.filter((x) => services.includes(x.service))) t.comment(`${r.service} :${r.port} (${r.proc.child.signalCode ?? 'alive'})\n${r.proc.output.slice(-40).join('\n')}`);
      t.comment(`${services.join('+')} state: ${JSON.stringify(await state().catch((e: unknown) => String(e)))}`);
      throw error;
    });
  /** What every connection of the test's database is doing: a wait that never ends shows here. */
  const connections = () => sql`
    select pid, application_name as app, client_port as port, state, wait_event_type as wait, wait_event as event, left(query, 120) as query,
      now() - state_change as since, now() - xact_start as xact from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  const sendsState = async () => ({
    account: await sql`select state, lease_owner, lease_until, now() as now from whatsapp.accounts where user_id = ${userId}`,
    pending: await sql`select origin, count(*)::int as n, min(sent_at) as oldest, max(attempts) as attempts from whatsapp.messages where user_id = ${userId} and direction = 'outgoing' and status = 'pending' group by origin`,
    connections: await connections(),
  });
  // The backlog grows with the machine's speed (the load phase is timed) and paced answers leave one per 20-30 ms:
  // waited for while it shrinks, failed when it stops.
  const [backlog, drainStarted] = [await pendingSends(), Date.now()];
  await explained(['whatsapp'], waitUntilDrained('every send delivered', pendingSends), sendsState);
  t.comment(`whatsapp backlog once the faults ended: ${backlog} sends, delivered in ${((Date.now() - drainStarted) / 1000).toFixed(1)} s`);
  // What analytics is told of: a send written as sent announces it in the same transaction; a send given up
  // ('failed') announces nothing, and is counted below as such rather than left to a wait that never ends.
  const announced = (origins: string[] | null) =>
    count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and direction = 'outgoing' and announced and (${origins}::text[] is null or origin = any(${origins}::text[]))`);
  const failedSends = () => count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and direction = 'outgoing' and status = 'failed'`);
  const answers = () => count(sql`select count(*) as n from whatsapp.messages where user_id = ${userId} and origin in ('keyword', 'ai')`);
  // A lost answer shows in the assertions below, with its figures, rather than as this wait's timeout.
  await waitFor('an answer for each incoming message (keyword or AI)', async () => (await answers()) >= incomingRows, 90_000).catch(() => undefined);
  await explained(['whatsapp'], waitUntilDrained('every send delivered, answers too', pendingSends), sendsState);
  const mailResumedMs = await mailResumed;
  await waitFor('every mail appended synced', async () => (await storedMails()) >= mail.appended.length, 90_000).catch(() => undefined);
  const expected = {
    'contacts.created': await contactRows(),
    'whatsapp.sent': await announced(null),
    'whatsapp.received': incomingRows,
    'whatsapp.autoreplies': await announced(['keyword', 'ai']),
    'email.sent': await count(sql`select count(*) as n from email.sent where user_id = ${userId}`),
    'email.received': await outboxEvents('email', 'email.message.received'),
    'ai.runs': await outboxEvents('ai', 'ai.run.completed'),
  };
  // A metric still short is thrown, so a timeout names it with its figures (the wait keeps the last error).
  const analyticsState = async () => ({
    totals: await sql`select metric, sum(value)::int as v from analytics.totals where user_id = ${userId} group by metric`,
    unpublished: Object.fromEntries(
      await Promise.all(
        (['contacts', 'whatsapp', 'email', 'ai'] as const).map(async (schema) => [schema, await count(sql`select count(*) as n from ${sql(schema)}.outbox where published_at is null`)] as const),
      ),
    ),
    claimed: await sql`select count(*)::int as n, max(claimed_until) as until, now() as now from contacts.outbox where published_at is null and claimed_until is not null`,
    connections: await connections(),
  });
  // Events short in analytics are either unpublished (the writing service's relay) or unconsumed: both logs, and
  // what every connection of the test's database is doing.
  await explained(['analytics', 'contacts', 'whatsapp', 'email', 'ai'], waitFor(
    'analytics caught up',
    async () => {
      for (const [metric, value] of Object.entries(expected)) {
        const seen = await counted(metric);
        if (seen < value) throw new Error(`${metric}: ${seen} counted of ${value}`);
      }
      return true;
    },
    150_000,
  ), analyticsState);

  const phone = existsSync(phoneLog)
    ? readFileSync(phoneLog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { jid: string; text: string; messageId: string })
    : [];
  // A message handed to the socket again under its own WhatsApp id (the owner killed between the send and its
  // write) is one message to WhatsApp; two ids for one send or one chat are a duplicate the recipient sees.
  const distinctIds = phone.filter((m, i) => phone.findIndex((other) => other.messageId === m.messageId) === i);
  const sendTexts = distinctIds.filter((m) => m.jid === SEND_JID).map((m) => m.text);
  const resent = phone.length - distinctIds.length;
  const answerChats = distinctIds.filter((m) => m.text === ANSWER).map((m) => m.jid);
  const duplicatedSends = sendTexts.length - new Set(sendTexts).size;
  const duplicatedAnswers = answerChats.length - new Set(answerChats).size;
  const lostSends = tally.sends.filter((text) => !sendTexts.includes(text)).length;
  // Automatic AI answers: one per customer burst, whichever ai replica answered it.
  const aiAnswers = distinctIds.filter((m) => AiLoad.isChat(m.jid));
  const aiAnswersOf = (jid: string) => aiAnswers.filter((m) => m.jid === jid);
  const aiLost = ai.chats.filter((c) => aiAnswersOf(c.jid).length === 0).length;
  const aiTwice = ai.chats.reduce((sum, c) => sum + Math.max(0, aiAnswersOf(c.jid).length - 1), 0);
  // Mails: each send answered 200 reached the SMTP peer once; each mail appended is listed once.
  const delivered = mail.delivered();
  const mailsLost = mail.accepted.filter((subject) => !delivered.has(subject)).length;
  const mailsTwice = [...delivered.values()].reduce((sum, times) => sum + Math.max(0, times - 1), 0);
  const inbox = await listedSubjects(call, 'inbox');
  const listed = (subject: string) => inbox.filter((s) => s === subject).length;
  const mailsInLost = mail.appended.filter((m) => listed(m.subject) === 0).length;
  const mailsInTwice = mail.appended.reduce((sum, m) => sum + Math.max(0, listed(m.subject) - 1), 0);
  const [mailsStoredTwice] = await sql<{ n: string }[]>`
    select count(*) as n from (select 1 from email.messages where user_id = ${userId} and message_id is not null group by account_id, folder, message_id having count(*) > 1) twice`;
  const [contactsTwice] = await sql<{ n: string }[]>`select count(*) - count(distinct lower(email)) as n from contacts.contacts where user_id = ${userId}`;
  const rows = expected['contacts.created'];

  const totals = Object.fromEntries(await Promise.all(Object.keys(expected).map(async (metric) => [metric, await counted(metric)] as const)));
  const eventsLost = Object.entries(expected).reduce((sum, [metric, value]) => sum + Math.max(0, value - totals[metric]!), 0);
  const eventsTwice = Object.entries(expected).reduce((sum, [metric, value]) => sum + Math.max(0, totals[metric]! - value), 0);
  const writes = tally.contacts + tally.sends.length + tally.incoming + ai.chats.length + mail.accepted.length + mail.appended.length;
  const lost = eventsLost + lostSends + aiLost + mailsLost + mailsInLost;
  const duplicated = eventsTwice + duplicatedSends + duplicatedAnswers + Number(contactsTwice!.n) + aiTwice + mailsTwice + mailsInTwice + Number(mailsStoredTwice!.n);
  const notReadyWithReplicas = (notReady.before ?? 0) + (notReady.kills ?? 0) + (notReady.nats ?? 0) + (notReady.after ?? 0);

  t.ok(rows >= tally.contacts && rows <= tally.contacts + tally.contactsCut, `every 201 contact persisted (${tally.contacts} answered, ${rows} rows)`);
  t.equal(Number(contactsTwice!.n), 0, 'no contact written twice');
  t.equal(lostSends, 0, `every accepted WhatsApp send reached the phone (${tally.sends.length} accepted, ${sendTexts.length} on the phone)`);
  t.equal(duplicatedSends, 0, 'no WhatsApp send reached the phone twice');
  t.equal(await failedSends(), 0, 'no WhatsApp send given up as failed');
  t.equal(incomingRows, givenToPhone, `every incoming message stored once (${givenToPhone} given to the phone)`);
  t.equal(answerChats.length - duplicatedAnswers, tally.incoming, 'one keyword answer per message with the keyword');
  t.equal(duplicatedAnswers, 0, 'no keyword answer sent twice');
  t.equal(aiLost, 0, `an AI answer for every customer burst (${ai.chats.length} bursts, ${aiAnswers.length} AI answers on the phone)`);
  t.equal(aiTwice, 0, 'no customer burst answered twice by the AI');
  t.ok(heldByKilledAi.length > 0, `the ai replica was killed while answering (${heldByKilledAi.length} bursts held)`);
  t.ok(
    takenOver.length === heldByKilledAi.length && takenOver.every((ms) => ms < QUIET_MS + 10_000),
    `the bursts the killed ai replica held were answered by the other within the quiet window + 10 s (${takenOver.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')})`,
  );
  t.equal(mailsLost, 0, `every mail send answered 200 reached the SMTP peer (${mail.accepted.length} answered, ${mail.smtp.received.length} received)`);
  t.equal(mailsTwice, 0, 'no mail reached the SMTP peer twice, the sends answered 409 included');
  t.equal(mailsInLost, 0, `every mail appended to the mailbox is listed by GET /api/emails (${mail.appended.length} appended)`);
  t.equal(mailsInTwice + Number(mailsStoredTwice!.n), 0, 'no mail listed or stored twice');
  t.ok(mailResumedMs < MAIL_RESUME_MS + 5000, `the mailbox resumed by the other email replica ${(mailResumedMs / 1000).toFixed(1)} s after its holder was killed`);
  t.same(totals, expected, 'analytics counts each write exactly once: contacts, sends, incoming messages, answers, mails, AI runs');
  t.equal(notReadyWithReplicas, 0, `the gateway stayed ready while one replica of each service lived (${JSON.stringify(notReady)}${notReadyChecks.length ? `; down: ${notReadyChecks.join(', ')}` : ''})`);
  // A killed replica may cut the requests it had in flight (502); a pool connection terminated by the cut is
  // found dead at its next use, however late, and that request answers 503 (told, so not lost). Nothing else.
  const unexplained = tally.failures.filter((f) => !f.startsWith('kills') && !/ 503$/.test(f));
  t.same(unexplained, [], `no write failed but those in flight to a killed replica or on a cut connection (${failureDetails.join('; ') || 'none'})`);
  t.same(tally.failures.filter((f) => f.startsWith('before') || f.startsWith('nats')), [], 'none before the faults, none while NATS was down');

  t.comment(
    `replicas faults: ${REPLICAS} replicas of ${ROUTES.length} services, ${kills} kills, ${writes} writes, ${lost} lost, ${duplicated} duplicated, /ready false ${notReadyWithReplicas} times`,
  );
  t.comment(
    `replicas faults mix: ${rows} contacts, ${tally.sends.length} WhatsApp sends, ${tally.incoming} incoming answered by keyword ${answerChats.length} times, ${ai.chats.length} customer bursts answered by AI ${aiAnswers.length} times (${heldByKilledAi.length} held by the killed ai replica, answered ${takenOver.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after the kill), ${mail.accepted.length} mails sent (${mail.inDoubt.length} answered 409 in doubt, ${mail.cut.length} attempts cut and retried with their key), ${mail.appended.length} mails received (the mailbox resumed ${(mailResumedMs / 1000).toFixed(1)} s after its holder was killed), NATS down ${NATS_DOWN_MS / 1000} s, ${pids.length} connections terminated (/ready false ${notReady.database ?? 0} times during the cut), ${tally.failures.length} writes cut in flight, ${phone.length} messages on the phone (${resent} handed again under their own id)`,
  );
});
