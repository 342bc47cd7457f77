import t from 'tap';
import { startDovecot, type Dovecot } from '../../services/email/test/fixtures/dovecot.js';
import { otherMailApp, rawMail } from '../../services/email/test/fixtures/imap-peer.js';
import { startOAuthPeer, type OAuthPeer } from '../../services/email/test/fixtures/oauth-peer.js';
import { startSmtpPeer, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { browserSuite, launchBrowser, LAPTOP, PHONE, registerUser, screenshot, signedInStorage, startApp, type RunningApp } from './fixtures/harness.js';
import { expectCleanLayout } from './fixtures/layout-check.js';

/**
 * Issue 27, "the OAuth callback leaves a second tab open", for mail at 1280×800 and 360×740: Conectar Gmail
 * opens the consent in a tab of its own; the callback's tab hands its outcome to Correos and closes, leaving
 * one tab of the app, which says the account is connected and lists its inbox. A local OAuth provider stands
 * in for Google; Dovecot checks its tokens (XOAUTH2) and an SMTP peer accepts them.
 */
const CLIENT_ID = 'cliente-de-prueba.apps.example';
const CLIENT_SECRET = 'secreto-del-cliente';
const PASSWORD = 'solo-para-la-prueba';
const SIZES = [
  { ...LAPTOP, mobile: false },
  { ...PHONE, mobile: true },
] as const;
const mailboxOf = (width: number) => `obrador${width}@gmail.example`;

browserSuite(t, () => {
  let provider: OAuthPeer;
  let dovecot: Dovecot;
  let smtp: SmtpPeer;
  let app: RunningApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  t.before(async () => {
    provider = await startOAuthPeer(CLIENT_ID, CLIENT_SECRET);
    dovecot = await startDovecot({ users: SIZES.map((s) => ({ user: mailboxOf(s.width), password: PASSWORD })), oauth2IntrospectionUrl: `${provider.url}/introspect` });
    smtp = await startSmtpPeer({ acceptToken: (user, token) => provider.validTokens.get(user) === token });
    for (const size of SIZES) {
      const phone = await otherMailApp(dovecot.host, dovecot.port, mailboxOf(size.width), PASSWORD);
      try {
        await phone.append('INBOX', rawMail({ from: 'Raúl Ibáñez <raul@cliente.example>', to: mailboxOf(size.width), subject: 'Encargo de tarta', body: '¿Tendréis la tarta el sábado?' }));
      } finally {
        await phone.logout().catch(() => {});
        phone.close();
      }
    }
    app = await startApp({
      // Dovecot, the SMTP peer and the provider listen on loopback: allowed as an operator allows a LAN server.
      ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_AUTH_URL: `${provider.url}/auth`,
      GOOGLE_TOKEN_URL: `${provider.url}/token`,
      GMAIL_IMAP_URL: `imap://127.0.0.1:${dovecot.port}`,
      GMAIL_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    });
    browser = await launchBrowser();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await dovecot?.stop();
    await provider?.close();
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: Conectar Gmail consents in a tab of its own, which closes; Correos says connected`, async (t) => {
      const session = await registerUser(app);
      const context = await browser.newContext({
        baseURL: app.url,
        viewport: { width: size.width, height: size.height },
        isMobile: size.mobile,
        hasTouch: size.mobile,
        locale: 'es-ES',
        storageState: signedInStorage(app, session),
      });
      context.setDefaultTimeout(30_000);
      t.teardown(() => context.close());
      const page = await context.newPage();
      page.on('pageerror', (error) => t.fail(`JavaScript error: ${error.message}`));
      provider.consentAs = mailboxOf(size.width);

      await page.goto('/emails');
      const connect = page.getByRole('button', { name: 'Conectar Gmail' });
      await connect.waitFor();
      const [tab] = await Promise.all([context.waitForEvent('page'), connect.click()]);
      await tab.waitForEvent('close');
      t.equal(context.pages().length, 1, 'no second tab of the app left open');
      await page.locator('.toast', { hasText: 'Cuenta de Gmail conectada' }).waitFor();
      await page.getByText(mailboxOf(size.width)).first().waitFor();
      await page.getByRole('list', { name: 'Correos' }).getByRole('button', { name: /Encargo de tarta/ }).waitFor();
      t.pass('the tab that asked lists the new account and its inbox');
      await page.waitForFunction(() => !/Cargando|Sincronizando/.test(document.querySelector('main')?.textContent ?? ''));
      await expectCleanLayout(t, page, 'Correos with a Gmail account');
      await screenshot(page, `correos-gmail-conectado-${size.width}`);
    });
  }
});
