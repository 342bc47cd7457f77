import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { startDovecot, type Dovecot } from '../../services/email/test/fixtures/dovecot.js';
import { otherMailApp, rawMail } from '../../services/email/test/fixtures/imap-peer.js';
import { startSmtpPeer, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { api, browserSuite, launchBrowser, registerUser, screenshot, signedInContext, startApp, type RunningApp, type Session } from './fixtures/harness.js';

const MAILBOX = 'horno@panaderia.example';
const PASSWORD = 'clave-del-horno';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
] as const;

/** The figure under `label` in the Analytics card titled `card`. */
const figure = (page: Page, card: string, label: string) =>
  page.getByRole('region', { name: card }).locator('.figure-list div', { has: page.locator('dt', { hasText: label }) }).locator('dd');

browserSuite(t, () => {
  let dovecot: Dovecot;
  let smtp: SmtpPeer;
  let app: RunningApp;
  let browser: Browser;
  let session: Session;

  t.before(async () => {
    dovecot = await startDovecot({ users: [{ user: MAILBOX, password: PASSWORD }] });
    smtp = await startSmtpPeer({ users: { [MAILBOX]: PASSWORD } });
    // Three mails already in the inbox, arrived over the last days, before the account is connected.
    const phone = await otherMailApp(dovecot.host, dovecot.port, MAILBOX, PASSWORD);
    try {
      for (const [i, subject] of ['Pedido de pan', 'Factura de harina', 'Cambio de horario'].entries()) {
        await phone.append('INBOX', rawMail({ from: 'cliente@pedidos.example', to: MAILBOX, subject, body: subject }), [], new Date(Date.now() - (i + 1) * 86_400_000));
      }
    } finally {
      await phone.logout().catch(() => {});
      phone.close();
    }
    app = await startApp({ ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
    browser = await launchBrowser();
    session = await registerUser(app);
    const server = (port: number, host: string) => ({ host, port, secure: false, user: MAILBOX, password: PASSWORD });
    const connected = await api(
      app,
      'POST',
      'emails/integrations',
      { provider: 'imap', credentials: { email: MAILBOX, imap: server(dovecot.port, dovecot.host), smtp: server(smtp.port, smtp.host) } },
      session.token,
    );
    t.equal(connected.status, 201, JSON.stringify(connected.body));
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await dovecot?.stop();
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: the 3 mails in the inbox are 3 "Recibidos" on Analytics`, async (t) => {
      const context = await signedInContext(browser, app, session);
      context.setDefaultTimeout(30_000);
      const page = await context.newPage();
      await page.setViewportSize(size);
      await page.goto('/emails');
      await page.getByText('Cambio de horario').first().waitFor();
      await page.goto('/analytics');
      await figure(page, 'Estadísticas de Email', 'Recibidos').filter({ hasText: /^3$/ }).waitFor();
      t.pass('Recibidos 3, counted on the days they arrived');
      await screenshot(page, `analytics-recibidos-${size.width}`);
      await context.close();
    });
  }
});
