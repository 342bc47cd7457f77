import { Writable } from 'node:stream';
import t from 'tap';
import calendarService from '@asistente/calendar';
import emailService from '@asistente/email';
import teamsService from '@asistente/teams';
import { createLogger, type App, type Platform } from '@asistente/kit';
import { buildServicesApp, createTestPlatform, oauthCookie } from '@asistente/kit/testing';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { GraphPeer } from '../../services/teams/test/peer/graph-peer.js';
import { trustedPeerTls } from '../../services/teams/test/peer/trusted.js';
import { buildGateway } from '../src/gateway.js';

/**
 * Issue 21, items 6 and 7, through the whole embedded app: the four OAuth flows (Google Calendar, Gmail,
 * Outlook, Microsoft Teams) against their local peers, which check PKCE as Google and Microsoft do.
 * - a genuine consent link followed by another browser (none, or another flow's cookie) connects nothing;
 * - a state connects once, on this replica or another one on the same database;
 * - no code and no state reaches a log line.
 * The Microsoft peer speaks HTTPS with its own CA, so this file runs again in a child that trusts it.
 */
const tls = await trustedPeerTls(t, import.meta.url);
if (tls) await suite(tls);

/** One OAuth flow as the browser drives it through /api. */
interface Flow {
  name: string;
  start: { method: 'GET' | 'POST'; url: string; field: 'url' | 'authUrl' };
  /** Whether the browser's landing says the account is now connected. */
  connected: (landing: string) => boolean;
  /** Stored connections of `userId` (rows in the service's schema). */
  rows: (sql: Platform['db']['sql'], userId: string) => Promise<number>;
}

const MISMATCH = 'No se pudo completar la conexión. Vuelve a intentarlo desde esta pantalla.';

async function suite(peerTls: NonNullable<typeof tls>): Promise<void> {
  const google = await new GooglePeer().start();
  t.teardown(() => google.stop());
  const microsoft = await new GraphPeer(peerTls).start();
  t.teardown(() => microsoft.stop());

  const logged: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const platform = await createTestPlatform(t, {
    log: createLogger('info', 'oauth-trust', {}, sink),
    config: {
      ...google.config(),
      ...microsoft.config(),
      // No mailbox behind the mail flows here: the code exchange is what this file is about.
      GMAIL_IMAP_URL: 'imap://127.0.0.1:9',
      GMAIL_SMTP_URL: 'smtp://127.0.0.1:9',
      OUTLOOK_IMAP_URL: 'imap://127.0.0.1:9',
      OUTLOOK_SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: 'https://asistente.example',
      LOG_LEVEL: 'info',
      RATE_LIMIT_REGISTER_MAX: 100,
    },
  });
  const app = await buildGateway(platform, 'embedded');
  await app.ready();
  t.teardown(() => app.close());
  // Another replica on the same database: the services alone, as a second process would serve them.
  const replica = await buildServicesApp(t, [calendarService, emailService, teamsService], platform);
  const sql = platform.db.sql;

  const count = async (query: PromiseLike<readonly unknown[]>) => (await query).length;
  const flows: Flow[] = [
    {
      name: 'google calendar',
      start: { method: 'GET', url: '/api/google/redirect', field: 'url' },
      connected: (landing) => landing.endsWith('/google-calendar?google=connected'),
      rows: (sql, userId) => count(sql`select 1 from calendar.google_accounts where user_id = ${userId}`),
    },
    {
      name: 'gmail',
      start: { method: 'GET', url: '/api/emails/integrations/gmail/connect', field: 'url' },
      connected: (landing) => landing.includes('/emails?connected=gmail'),
      rows: (sql, userId) => count(sql`select 1 from email.accounts where user_id = ${userId}`),
    },
    {
      name: 'outlook',
      start: { method: 'GET', url: '/api/emails/integrations/outlook/connect', field: 'url' },
      connected: (landing) => landing.includes('/emails?connected=outlook'),
      rows: (sql, userId) => count(sql`select 1 from email.accounts where user_id = ${userId}`),
    },
    {
      name: 'microsoft teams',
      start: { method: 'POST', url: '/api/teams/connect', field: 'authUrl' },
      connected: (landing) => landing.endsWith('/teams?microsoft=connected'),
      rows: (sql, userId) => count(sql`select 1 from teams.connections where user_id = ${userId}`),
    },
  ];

  /** Code exchanges that reached a provider: what "exchanges no code" counts. */
  const exchanges = () =>
    google.requests.filter((r) => r.path === '/token' && (r.body as Record<string, string> | undefined)?.grant_type === 'authorization_code').length +
    microsoft.requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token')).length;

  /** Every code and state the providers handed to a browser: none may be logged. */
  const secrets = new Set<string>();

  async function register(name: string): Promise<{ id: string; authorization: string }> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { firstName: name, lastName: 'Prueba', email: `${name.toLowerCase()}.${Date.now()}@ejemplo.es`, password: 'clave-larga-1' },
    });
    const { user, token } = res.json<{ user: { id: string }; token: string }>();
    return { id: user.id, authorization: `Bearer ${token}` };
  }

  /** The answer that hands out the consent URL (and sets the cookie), then the provider's consent: the callback's path and query. */
  async function consent(flow: Flow, authorization: string): Promise<{ cookie: string; callback: string }> {
    const started = await app.inject({ method: flow.start.method, url: flow.start.url, headers: { authorization } });
    if (started.statusCode !== 200) throw new Error(`${flow.name}: ${started.statusCode} ${started.body}`);
    const url = started.json<Record<string, string>>()[flow.start.field]!;
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    for (const name of ['code', 'state']) {
      const value = back.searchParams.get(name);
      if (value) secrets.add(value);
    }
    return { cookie: oauthCookie(started.headers['set-cookie']), callback: `${back.pathname}${back.search}` };
  }

  async function land(target: App, callback: string, cookie: string | undefined): Promise<string> {
    const res = await target.inject({ url: callback, headers: cookie ? { cookie } : {} });
    if (res.statusCode !== 302) throw new Error(`callback answered ${res.statusCode}: ${res.body}`);
    return String(res.headers.location);
  }

  const attacker = await register('Atacante');
  const victim = await register('Victima');
  google.addAccount('victima@ejemplo.com');

  t.test('a consent link followed by a browser that did not start the flow connects nothing', async (t) => {
    let callbacks = 0;
    let connections = 0;
    for (const flow of flows) {
      // The attacker starts the flow and sends the consent link; the victim consents in their own browser.
      const bait = await consent(flow, attacker.authorization);
      // The victim's browser has its own cookie for the same flow (it once started one itself), not the attacker's.
      const own = await consent(flow, victim.authorization);
      const before = { exchanges: exchanges(), rows: await flow.rows(sql, attacker.id) };
      for (const cookie of [undefined, own.cookie]) {
        const landing = await land(app, bait.callback, cookie);
        callbacks += 1;
        t.notOk(flow.connected(landing), `${flow.name}, ${cookie ? 'another cookie' : 'no cookie'}: not connected`);
        t.match(decodeURIComponent(landing.replace(/\+/g, ' ')), /mismatch|No se pudo completar la conexión/, 'the screen is told to start again');
      }
      connections += exchanges() - before.exchanges + (await flow.rows(sql, attacker.id)) - before.rows;
    }
    t.comment(`trust oauth-browser: ${callbacks} callbacks from a browser that did not start the flow, ${connections} connections`);
    t.equal(connections, 0, 'no code exchanged, nothing stored in the account of the attacker');
  });

  t.test('a state connects once, on this replica or on another', async (t) => {
    let replayed = 0;
    let connections = 0;
    for (const flow of flows) {
      const user = await register(`Usuario${flow.name.replace(/\W/g, '')}`);
      const { cookie, callback } = await consent(flow, user.authorization);
      const exchangedBefore = exchanges();
      const landing = await land(app, callback, cookie);
      t.equal(exchanges(), exchangedBefore + 1, `${flow.name}: the genuine callback redeems its code (PKCE checked by the provider)`);
      // The mail flows stop at the mailbox login (no IMAP server here); the calendar and Teams ones connect.
      if (flow.name === 'google calendar' || flow.name === 'microsoft teams') t.ok(flow.connected(landing), `${flow.name}: connected`);
      else t.notMatch(decodeURIComponent(landing), MISMATCH, `${flow.name}: accepted`);
      const before = { exchanges: exchanges(), rows: await flow.rows(sql, user.id) };
      for (const target of [app, replica]) {
        const again = await land(target, callback, cookie);
        replayed += 1;
        t.match(decodeURIComponent(again.replace(/\+/g, ' ')), /mismatch|No se pudo completar la conexión/, `${flow.name}: replay refused on ${target === app ? 'the same' : 'another'} replica`);
      }
      connections += exchanges() - before.exchanges + (await flow.rows(sql, user.id)) - before.rows;
    }
    t.comment(`trust oauth-replay: ${replayed} replayed states, ${connections} connections`);
    t.equal(connections, 0, 'no replay exchanged a code');
  });

  t.test('a code redeemed without the verifier of its challenge is refused by the providers', async (t) => {
    const { callback } = await consent(flows[0]!, attacker.authorization);
    const code = new URL(callback, 'https://x').searchParams.get('code')!;
    const config = google.config();
    const res = await fetch(config.GOOGLE_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://asistente.example/api/google/callback',
        client_id: config.GOOGLE_CLIENT_ID,
        client_secret: config.GOOGLE_CLIENT_SECRET,
        code_verifier: 'a'.repeat(43),
      }),
    });
    t.equal(res.status, 400, 'an intercepted code is worth nothing without this server');
  });

  t.test('no OAuth code or state in any log line', async (t) => {
    const log = logged.join('');
    t.match(log, /"url":"\/api\/google\/callback\?[^"]*state=\[redactado\]/, 'callbacks are logged, their state redacted');
    t.ok(secrets.size >= 20, `${secrets.size} codes and states handed to browsers`);
    const leaked = [...secrets].filter((value) => log.includes(value) || log.includes(encodeURIComponent(value)));
    t.comment(`trust log-secrets: ${leaked.length} OAuth codes or states in the log`);
    t.same(leaked, [], 'none leaked');
  });
}
