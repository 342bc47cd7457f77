import t from 'tap';
import { oauthCookie } from '@asistente/kit/testing';
import { eventually } from './fixtures/imap-peer.js';
import { startOAuthMailbox } from './fixtures/oauth-mailbox.js';

const USER = 'ana@contoso.example';
const CLIENT_ID = 'id-de-aplicacion-azure';
const CLIENT_SECRET = 'secreto-azure';

const { provider, smtp, phone, app, auth } = await startOAuthMailbox(t, {
  user: USER,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  inbox: { from: 'jefe@contoso.example', subject: 'Hola desde Outlook' },
  config: ({ provider, dovecot, smtp }) => ({
    MICROSOFT_CLIENT_ID: CLIENT_ID,
    MICROSOFT_CLIENT_SECRET: CLIENT_SECRET,
    MICROSOFT_TENANT: 'organizations',
    MICROSOFT_LOGIN_URL: provider.url,
    OUTLOOK_IMAP_URL: `imap://127.0.0.1:${dovecot.port}`,
    OUTLOOK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  }),
});

t.test('Outlook: the Microsoft identity platform flow, then XOAUTH2 to IMAP and SMTP; Gmail unconfigured says so', async (t) => {
  const gmail = await app.inject({ url: '/emails/integrations/gmail/connect', headers: auth });
  t.equal(gmail.statusCode, 503);
  t.equal(gmail.json().message, 'Gmail no está configurado en este servidor. Pide al administrador que configure la conexión con Gmail.');

  const connect = await app.inject({ url: '/emails/integrations/outlook/connect', headers: auth });
  const url = new URL(connect.json<{ url: string }>().url);
  t.equal(`${url.origin}${url.pathname}`, `${provider.url}/organizations/oauth2/v2.0/authorize`);
  t.match(url.searchParams.get('scope'), /IMAP\.AccessAsUser\.All .*SMTP\.Send .*offline_access/);
  t.equal(url.searchParams.get('code_challenge_method'), 'S256', 'PKCE');
  const cookie = oauthCookie(connect.headers['set-cookie']);
  const callback = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  const state = callback.searchParams.get('state')!;
  // A Gmail callback cannot finish an Outlook flow.
  const crossed = await app.inject({ url: `/emails/integrations/gmail/callback${callback.search}`, headers: { cookie } });
  t.match(crossed.headers.location, /\/emails\?error=/);

  const back = await app.inject({ url: `/emails/integrations/outlook/callback?code=${callback.searchParams.get('code')}&state=${encodeURIComponent(state)}`, headers: { cookie } });
  t.equal(back.headers.location, 'https://asistente.example/emails?connected=outlook');
  t.match(provider.grants.at(-1), { grant_type: 'authorization_code', client_id: CLIENT_ID });
  t.match(provider.grants.at(-1)?.code_verifier, /^[A-Za-z0-9_-]{43}$/, 'the code redeemed with its PKCE verifier');

  const list = await eventually('the Outlook inbox over XOAUTH2', async () => {
    const page = (await app.inject({ url: '/emails', headers: auth })).json<{ data: { subject: string }[] }>();
    return page.data.length > 0 && page;
  });
  t.equal(list.data[0]?.subject, 'Hola desde Outlook');
  t.match((await app.inject({ url: '/emails/integrations', headers: auth })).json(), [{ provider: 'outlook', email: USER, connected: true }]);

  const sent = await app.inject({ method: 'POST', url: '/emails/send', headers: auth, payload: { to: 'jefe@contoso.example', subject: 'Respuesta', body: 'Hola' } });
  t.equal(sent.statusCode, 200, sent.body);
  t.equal((await smtp.waitFor(1)).user, USER);
  // Outlook files its own copy in Sent: nothing appended by the app.
  const lock = await phone.getMailboxLock('Sent');
  try {
    t.equal(((await phone.search({ all: true }, { uid: true })) || []).length, 0);
  } finally {
    lock.release();
  }
});
