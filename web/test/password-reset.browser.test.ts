import t, { type Test } from 'tap';
import type { Browser, Page } from 'playwright-core';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { checkLayout } from './fixtures/layout-check.js';
import { api, browserSuite, launchBrowser, registerUser, screenshot, SCREENS_DIR, seriousA11yViolations, startApp, type RunningApp } from './fixtures/harness.js';

const SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '360', width: 360, height: 740 },
] as const;

const WRONG = 'Correo o contraseña incorrectos';

browserSuite(t, () => {
  let smtp: SmtpPeer;
  let app: RunningApp;
  let withoutMailer: RunningApp;
  let browser: Browser;

  t.before(async () => {
    smtp = await startSmtpPeer({ users: { sistema: 'clave-smtp' } });
    [app, withoutMailer] = await Promise.all([
      startApp({ SMTP_URL: `smtp://sistema:clave-smtp@${smtp.host}:${smtp.port}`, MAIL_FROM: 'Mi Asistente.IA <no-reply@panaderia.test>' }),
      startApp(),
    ]);
    browser = await launchBrowser();
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await withoutMailer?.stop();
    await smtp?.close();
  });

  async function guestPage(on: RunningApp, size: (typeof SIZES)[number]): Promise<Page> {
    const context = await browser.newContext({ baseURL: on.url, viewport: { width: size.width, height: size.height }, locale: 'es-ES' });
    context.setDefaultTimeout(30_000);
    // tsx names the helper functions inside page.evaluate with its own __name(): give the page one.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    t.teardown(() => context.close());
    const page = await context.newPage();
    page.on('pageerror', (error) => t.fail(`JavaScript error: ${error.message}`));
    return page;
  }

  /** The house's layout check (layout-check.ts): nothing off screen or scrolling sideways, no text over text, no word cut. */
  async function fitsTheScreen(t: Test, page: Page, width: number, what: string) {
    await page.evaluate(() => document.fonts.ready);
    const findings = await checkLayout(page);
    const where = `${what} at ${width} px`;
    t.same(findings.pageScroll, [], `${where}: no sideways scroll`);
    t.same(findings.controlsOutside, [], `${where}: every control within the screen`);
    t.same(findings.overlappingText, [], `${where}: no text over other text`);
    t.same(findings.brokenWords, [], `${where}: no word broken that would fit`);
    t.same(findings.truncatedFields, [], `${where}: placeholders shown whole`);
  }

  /** The first mail to `email` from the `after`-th on. */
  async function mailTo(email: string, after: number): Promise<ReceivedMail> {
    for (let count = after + 1; ; count++) {
      const mail = await smtp.waitFor(count);
      if (mail.envelope.to.includes(email)) return mail;
    }
  }

  for (const size of SIZES) {
    t.test(`at ${size.width}×${size.height}: a wrong password stays on the form; the mailed link works once`, async (t) => {
      const owner = await registerUser(app, { firstName: 'Carmen' });
      const email = owner.user.email;
      const page = await guestPage(app, size);

      await page.goto('/login');
      await page.getByLabel('Correo electrónico').fill(email);
      await page.getByLabel('Contraseña', { exact: true }).fill('no-es-esta');
      await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
      const inline = page.locator('form .form-error', { hasText: WRONG });
      await inline.waitFor();
      // The toast says it too, for a few seconds; the form keeps saying it after the toast has gone.
      await page.locator('.toast', { hasText: WRONG }).waitFor({ state: 'detached', timeout: 15_000 });
      t.ok(await inline.isVisible(), 'the message is still under the form after the toast');
      await fitsTheScreen(t, page, size.width, 'login with the error');
      await screenshot(page, `login-contrasena-incorrecta-${size.name}`);
      await page.getByLabel('Contraseña', { exact: true }).pressSequentially('x');
      await inline.waitFor({ state: 'detached' });
      t.pass('editing the password clears it');

      await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
      await page.getByRole('heading', { name: '¿Olvidaste tu contraseña?', level: 1 }).waitFor();
      t.equal(new URL(page.url()).pathname, '/recuperar-contrasena');
      await page.getByRole('button', { name: 'Enviar enlace' }).waitFor();
      await fitsTheScreen(t, page, size.width, 'forgot form');
      await page.getByLabel('Correo electrónico').fill(email);
      const before = smtp.received.length;
      await page.getByRole('button', { name: 'Enviar enlace' }).click();
      await page.getByText('Si hay una cuenta con ese correo, te hemos enviado un enlace').waitFor();
      await page.getByText('El enlace vale 30 minutos').waitFor();
      await fitsTheScreen(t, page, size.width, 'forgot, sent');
      await screenshot(page, `contrasena-olvidada-enviado-${size.name}`);

      const mail = await mailTo(email, before);
      t.equal(mail.parsed.subject, 'Restablece tu contraseña de Mi Asistente.IA');
      const link = new RegExp(`${app.url.replace(/[.]/g, '\\.')}/restablecer\\?token=[A-Za-z0-9_-]+`).exec(mail.parsed.text ?? '')?.[0];
      t.ok(link, 'the mail links to PUBLIC_URL/restablecer?token=…');

      await page.goto(link!);
      await page.getByRole('heading', { name: 'Restablecer contraseña', level: 1 }).waitFor();
      await page.getByLabel('Nueva contraseña', { exact: true }).fill('Pan-de-Centeno-24');
      await page.getByLabel('Confirmar contraseña', { exact: true }).fill('Pan-de-Centeno-24');
      await fitsTheScreen(t, page, size.width, 'new password form');
      t.same(await seriousA11yViolations(page), [], 'restablecer: no serious accessibility findings');
      await screenshot(page, `restablecer-${size.name}`);
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();

      await page.getByText('Tu contraseña se ha cambiado. Inicia sesión con la nueva.').waitFor();
      t.equal(new URL(page.url()).pathname, '/login', 'back to the login form, with a confirmation');
      await fitsTheScreen(t, page, size.width, 'login with the confirmation');
      await screenshot(page, `login-contrasena-cambiada-${size.name}`);
      t.equal((await api(app, 'GET', 'auth/me', undefined, owner.token)).status, 401, 'the session opened before the reset has ended');

      await page.getByLabel('Correo electrónico').fill(email);
      await page.getByLabel('Contraseña', { exact: true }).fill('Pan-de-Centeno-24');
      await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      t.ok(await page.evaluate(() => localStorage.getItem('token')), 'the new password signs in');

      // The same link a second time: refused, with the way to a new one.
      await page.goto(link!);
      await page.getByLabel('Nueva contraseña', { exact: true }).fill('Otra-Clave-Nueva-9');
      await page.getByLabel('Confirmar contraseña', { exact: true }).fill('Otra-Clave-Nueva-9');
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();
      await page.locator('.form-error', { hasText: 'Este enlace para restablecer la contraseña ya se usó o no es válido' }).waitFor();
      await page.getByRole('link', { name: 'Pedir un enlace nuevo' }).waitFor();
      await fitsTheScreen(t, page, size.width, 'spent link');
      await screenshot(page, `restablecer-enlace-usado-${size.name}`);
      t.equal((await api(app, 'POST', 'auth/login', { email, password: 'Otra-Clave-Nueva-9' })).status, 401, 'the second use changed nothing');
    });

    t.test(`at ${size.width}×${size.height}: without SMTP_URL the screen says to ask the administrator`, async (t) => {
      const page = await guestPage(withoutMailer, size);
      await page.goto('/login');
      await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
      await page.getByText('Este servidor no tiene configurado el envío de correos').waitFor();
      await page.getByText('Pide al administrador de Mi Asistente.IA que te genere un enlace').waitFor();
      await page.getByText('npx asistente admin reset-password <correo> --data-dir ./data', { exact: true }).waitFor();
      t.equal(await page.getByRole('button', { name: 'Enviar enlace' }).count(), 0, 'no form that would send nothing');
      await fitsTheScreen(t, page, size.width, 'ask the administrator');
      await screenshot(page, `contrasena-olvidada-sin-correo-${size.name}`);
    });
  }
});
