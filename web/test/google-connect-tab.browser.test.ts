import t from 'tap';
import type { Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { browserSuite, launchBrowser, LAPTOP, PHONE, registerUser, screenshot, signedInStorage, startApp, type RunningApp } from './fixtures/harness.js';
import { expectCleanLayout } from './fixtures/layout-check.js';

/**
 * Issue 27, "smaller, also seen", at 1280×800 and 360×740: connecting Google Calendar leaves the owner with
 * one tab of the app (the callback's tab hands its outcome back and closes), and a new event or meeting starts
 * at the next working hour, not at 23:00. The browser's clock is set to a Tuesday at 22:40 in Madrid, the
 * evening the owner met the 23:00 default, so the expected slot is Wednesday at 9:00.
 */
const EMAIL = 'obrador.google@ejemplo.com';
const EVENING = new Date('2026-11-24T22:40:00+01:00');
const NEXT_WORKING_HOUR = '2026-11-25T09:00';
const SIZES = [
  { ...LAPTOP, mobile: false },
  { ...PHONE, mobile: true },
] as const;

const startOf = (page: Page, dialog: string) => page.getByRole('dialog', { name: dialog }).getByLabel('Inicio', { exact: true }).inputValue();

browserSuite(t, () => {
  let peer: GooglePeer;
  let app: RunningApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  t.before(async () => {
    peer = await new GooglePeer().start();
    peer.addAccount(EMAIL);
    app = await startApp(peer.config());
    browser = await launchBrowser();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: Google's consent in a tab of its own, which closes; forms start at the next working hour`, async (t) => {
      const session = await registerUser(app);
      const context = await browser.newContext({
        baseURL: app.url,
        viewport: { width: size.width, height: size.height },
        isMobile: size.mobile,
        hasTouch: size.mobile,
        locale: 'es-ES',
        timezoneId: 'Europe/Madrid',
        storageState: signedInStorage(app, session),
      });
      context.setDefaultTimeout(20_000);
      t.teardown(() => context.close());
      const page = await context.newPage();
      page.on('pageerror', (error) => t.fail(`JavaScript error: ${error.message}`));

      await page.goto('/google-calendar');
      const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Conectar Google Calendar' }).click()]);
      await tab.waitForEvent('close');
      t.ok(peer.requests.some((r) => r.path === '/o/oauth2/v2/auth'), 'the tab went through Google');
      t.equal(context.pages().length, 1, 'no second tab of the app left open');
      await page.locator('.toast', { hasText: '¡Google Calendar conectado!' }).waitFor();
      await page.getByText(`Conectado como ${EMAIL}`).waitFor();
      t.pass('the tab that asked says it is connected');

      await page.clock.setFixedTime(EVENING);
      await page.getByRole('button', { name: 'Nuevo Evento', exact: true }).click();
      t.equal(await startOf(page, 'Nuevo Evento'), NEXT_WORKING_HOUR, 'Nuevo Evento at 22:40 on a Tuesday: Wednesday at 9:00');
      await expectCleanLayout(t, page, 'Nuevo Evento', '[role="dialog"]');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Nueva Reunión Meet', exact: true }).click();
      t.equal(await startOf(page, 'Nueva Reunión Google Meet'), NEXT_WORKING_HOUR, 'Nueva Reunión Meet: the same');
      await screenshot(page, `google-meet-hora-laboral-${size.width}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.goto('/calendar');
      await page.getByRole('button', { name: 'Nuevo evento', exact: true }).click();
      t.equal(await startOf(page, 'Nuevo Evento'), NEXT_WORKING_HOUR, 'Calendario › Nuevo evento: the same');
    });
  }
});
