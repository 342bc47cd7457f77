import t from 'tap';
import { oauthCookie } from '@asistente/kit/testing';
import { eventually } from './fixtures/imap-peer.js';
import { startOAuthMailbox } from './fixtures/oauth-mailbox.js';

const USER = 'ana@gmail.example';
const CLIENT_ID = 'cliente-de-prueba.apps.example';
const CLIENT_SECRET = 'secreto-del-cliente';

// Access tokens that expire at once: every use of the account goes through the refresh grant.
const { provider, smtp, platform, app, auth } = await startOAuthMailbox(t, {
  user: USER,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  tokenTtl: 1,
  inbox: { from: 'luis@cliente.com', subject: 'Hola por OAuth' },
  config: ({ provider, dovecot, smtp }) => ({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_AUTH_URL: `${provider.url}/auth`,
    GOOGLE_TOKEN_URL: `${provider.url}/token`,
    GMAIL_IMAP_URL: `imap://127.0.0.1:${dovecot.port}`,
    GMAIL_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  }),
});

t.test('a provider without a client id answers 503 telling the owner to ask the administrator (no setting names)', async (t) => {
  const res = await app.inject({ url: '/emails/integrations/outlook/connect', headers: auth });
  t.equal(res.statusCode, 503);
  t.equal(res.json().message, 'Outlook no está configurado en este servidor. Pide al administrador que configure la conexión con Outlook.');
  t.notMatch(res.json().message, /CLIENT_ID|CLIENT_SECRET/, 'nothing the owner cannot act on');
  t.equal((await app.inject({ url: '/emails/integrations/yahoo/connect', headers: auth })).statusCode, 400);
  const providers = await app.inject({ url: '/emails/integrations/providers', headers: auth });
  t.same(providers.json(), {
    gmail: { configured: true, message: null },
    outlook: { configured: false, message: res.json().message },
  });
});

t.test('Gmail: authorization code, tokens sealed, XOAUTH2 to IMAP and SMTP, refreshed when expired', async (t) => {
  const connect = await app.inject({ url: '/emails/integrations/gmail/connect', headers: auth });
  t.equal(connect.statusCode, 200);
  const url = new URL(connect.json<{ url: string }>().url);
  t.equal(`${url.origin}${url.pathname}`, `${provider.url}/auth`);
  t.equal(url.searchParams.get('client_id'), CLIENT_ID);
  t.equal(url.searchParams.get('redirect_uri'), 'https://asistente.example/api/emails/integrations/gmail/callback');
  t.match(url.searchParams.get('scope'), 'https://mail.google.com/');
  t.equal(url.searchParams.get('code_challenge_method'), 'S256', 'PKCE');
  const cookie = oauthCookie(connect.headers['set-cookie']);
  t.match(connect.headers['set-cookie'], /; Path=\/api\/emails\/integrations\/gmail\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);

  // The provider's consent sends the browser back with a code and the state.
  const consent = await fetch(url, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  const state = callback.searchParams.get('state')!;
  const code = callback.searchParams.get('code')!;

  // A forged or foreign state never completes a connection.
  const forged = await app.inject({ url: `/emails/integrations/gmail/callback?code=${code}&state=${state}x`, headers: { cookie } });
  t.equal(forged.statusCode, 302);
  t.match(forged.headers.location, /^https:\/\/asistente\.example\/emails\?error=/);

  // The browser comes back with no bearer token: the route is public, the state names the user, the cookie the browser.
  const back = await app.inject({ url: `/emails/integrations/gmail/callback?code=${code}&state=${encodeURIComponent(state)}`, headers: { cookie } });
  t.equal(back.statusCode, 302);
  t.equal(back.headers.location, 'https://asistente.example/emails?connected=gmail');
  t.match(back.headers['set-cookie'], /^asistente_oauth=; .*Max-Age=0/, 'the flow is over: the cookie goes');
  t.match(provider.grants[0], { grant_type: 'authorization_code', redirect_uri: 'https://asistente.example/api/emails/integrations/gmail/callback' });

  const [integration] = (await app.inject({ url: '/emails/integrations', headers: auth })).json<{ provider: string; email: string }[]>();
  t.match(integration, { provider: 'gmail', email: USER, connected: true });
  const [row] = await platform.db.sql<{ credentialsEnc: string }[]>`select credentials_enc from email.accounts`;
  t.notMatch(row!.credentialsEnc, 'rt-');
  t.notMatch(row!.credentialsEnc, 'at-');

  const inbox = await eventually('the Gmail inbox over XOAUTH2', async () => {
    const list = (await app.inject({ url: '/emails', headers: auth })).json<{ data: { subject: string }[] }>();
    return list.data.length > 0 && list;
  });
  t.equal(inbox.data[0]?.subject, 'Hola por OAuth');
  t.ok(provider.grants.some((g) => g.grant_type === 'refresh_token'), 'the expired access token was refreshed');

  const sent = await app.inject({ method: 'POST', url: '/emails/send', headers: auth, payload: { to: 'luis@cliente.com', subject: 'Desde Gmail', body: 'Hola' } });
  t.equal(sent.statusCode, 200, sent.body);
  const mail = await smtp.waitFor(1);
  t.equal(mail.user, USER, 'authenticated with XOAUTH2');
  t.equal(mail.parsed.subject, 'Desde Gmail');
});
