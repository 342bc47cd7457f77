import t from 'tap';
import type { Page } from 'playwright-core';
import { appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, SCREENS_DIR, screenshot } from './fixtures/harness.js';

const VIEWPORTS = [
  { name: 'portatil', ...LAPTOP },
  { name: 'movil', ...PHONE },
];

const card = (page: Page) => page.getByRole('region', { name: 'Actividad de seguridad' });
const rows = (page: Page) => card(page).locator('.security-activity-what');

/** Clicks "Actualizar" until the card lists `expected` in this order (the log is written after the action, through the outbox). */
async function waitForRows(page: Page, expected: string[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const seen = (await rows(page).allTextContents()).slice(0, expected.length);
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) throw new Error(`la actividad muestra ${JSON.stringify(seen)}, se esperaba ${JSON.stringify(expected)}`);
    const answered = page.waitForResponse((r) => r.url().includes('/api/account/activity'));
    await card(page).getByRole('button', { name: 'Actualizar' }).click();
    await answered;
  }
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.before(async () => {
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });

  for (const viewport of VIEWPORTS) {
    t.test(`the owner reads a failed login, a login and a password change in "Actividad de seguridad" (${viewport.width}×${viewport.height})`, async (t) => {
      const { user, password } = await registerUser(stage.app);
      const ctx = await stage.browser.newContext({ baseURL: stage.app.url, viewport: { width: viewport.width, height: viewport.height }, locale: 'es-ES' });
      ctx.setDefaultTimeout(10_000);
      t.teardown(() => ctx.close());
      const page = await ctx.newPage();

      await page.goto('/login');
      await page.getByLabel('Correo electrónico').fill(user.email);
      await page.getByLabel('Contraseña', { exact: true }).fill('incorrecta1');
      await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
      await page.locator('.toast-error', { hasText: 'Correo o contraseña incorrectos' }).waitFor();
      await page.getByLabel('Contraseña', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
      await page.waitForURL((url) => url.pathname === '/');

      await page.goto('/settings');
      await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
      await page.getByLabel('Nueva contraseña', { exact: true }).fill('Otra-Clave-2026');
      await page.getByLabel('Confirmar nueva contraseña', { exact: true }).fill('Otra-Clave-2026');
      await page.getByRole('button', { name: 'Actualizar Contraseña' }).click();
      await page.locator('.toast', { hasText: 'Contraseña actualizada' }).waitFor();

      await card(page).scrollIntoViewIfNeeded();
      await waitForRows(page, ['Contraseña cambiada', 'Inicio de sesión', 'Intento de inicio de sesión fallido']);
      const where = await card(page).locator('.security-activity-where').first().textContent();
      t.match(where, /127\.0\.0\.1/, 'the address');
      t.match(where, /Chrome en Linux/, 'the browser in a few words');
      t.match(where, /\d{1,2} \w+\.? \d{4}/, 'an es-ES date');
      t.notOk(await card(page).getByText(/Otra-Clave|incorrecta1/).count(), 'no password on screen');
      await card(page).getByText('Mostrando 1 a 3 de 3').waitFor();
      t.ok(await card(page).getByRole('button', { name: 'Siguiente' }).isDisabled(), 'one page');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      t.equal(overflow, 0, 'nothing wider than the screen');
      await screenshot(page, `actividad-seguridad-${viewport.name}`);
    });
  }
});
