import t from 'tap';
import type { Page } from 'playwright-core';
import { startDovecot, type Dovecot } from '../../services/email/test/fixtures/dovecot.js';
import { otherMailApp, rawMail } from '../../services/email/test/fixtures/imap-peer.js';
import { startSmtpPeer, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInPage, type Session } from './fixtures/harness.js';

const MAILBOX = 'horno@panaderia.example';
const PASSWORD = 'clave-del-horno';
const SIZES = [LAPTOP, PHONE] as const;

/** The figure under `label` in the Analytics card titled `card`. */
const figure = (page: Page, card: string, label: string) =>
  page.getByRole('region', { name: card }).locator('.figure-list div', { has: page.locator('dt', { hasText: label }) }).locator('dd');

browserSuite(t, () => {
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let dovecot: Dovecot;
  let smtp: SmtpPeer;
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
    session = await registerUser(stage.app);
    const server = (port: number, host: string) => ({ host, port, secure: false, user: MAILBOX, password: PASSWORD });
    const connected = await api(
      stage.app,
      'POST',
      'emails/integrations',
      { provider: 'imap', credentials: { email: MAILBOX, imap: server(dovecot.port, dovecot.host), smtp: server(smtp.port, smtp.host) } },
      session.token,
    );
    t.equal(connected.status, 201, JSON.stringify(connected.body));
  });
  t.teardown(async () => {
    await smtp?.close();
    await dovecot?.stop();
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: the 3 mails in the inbox are 3 "Recibidos" on Analytics`, async (t) => {
      const page = await signedInPage(t, stage, session, { viewport: size, path: '/emails', timeout: 30_000 });
      await page.getByText('Cambio de horario').first().waitFor();
      await page.goto('/analytics');
      await figure(page, 'Estadísticas de Email', 'Recibidos').filter({ hasText: /^3$/ }).waitFor();
      t.pass('Recibidos 3, counted on the days they arrived');
      await screenshot(page, `analytics-recibidos-${size.width}`);
    });
  }
});
