import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, registerUser, screenshot, signedInContext, type Session } from './fixtures/harness.js';

const BANNER = 'Sin conexión con el servidor. Reintentando…';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const contactsValue = (page: Page) => page.locator('.stat-card', { hasText: 'Contactos' }).locator('.stat-value');

/** Polls `condition` until it holds or the deadline passes (then fails with `what`). */
async function until(what: string, condition: () => boolean, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) if (condition()) return;
  throw new Error(`no ocurrió a tiempo: ${what}`);
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);
  let session: Session;

  t.before(async () => {
    session = await registerUser(stage.app);
    await api(stage.app, 'POST', 'contacts', { firstName: 'Ana', lastName: 'Antes', tags: [] }, session.token);
  });

  t.test('server down: banner, stale figures, one backed-off probe; restart: live figures come back on their own', async (t) => {
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(20_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto('/');
    await contactsValue(page).filter({ hasText: /^1$/ }).waitFor();

    let down = false;
    let firstFailureAt = 0;
    const probes: number[] = [];
    const apiWhileDown: string[] = [];
    page.on('requestfailed', () => {
      if (down && !firstFailureAt) firstFailureAt = Date.now();
    });
    page.on('request', (request) => {
      if (!down) return;
      const path = new URL(request.url()).pathname;
      if (path === '/health') probes.push(Date.now());
      else if (path.startsWith('/api/')) apiWhileDown.push(path);
    });

    down = true;
    await stage.app.halt();
    // The open stream ends with the server; the client's next attempt is the first request that fails.
    await until('a request failed', () => firstFailureAt > 0);
    const banner = page.getByRole('alert').filter({ hasText: BANNER });
    await banner.waitFor();
    const bannerAfterMs = Date.now() - firstFailureAt;
    t.ok(bannerAfterMs < 3000, `the banner shows within 3 s of the first failed request (${bannerAfterMs} ms)`);

    await page.locator('.stat-card.is-stale', { hasText: 'Contactos' }).waitFor();
    t.match(await contactsValue(page).textContent(), /^1 \(sin actualizar\)$/, 'the last figure stays, marked stale, not zero');
    await page.locator('.stale-notice', { hasText: 'Datos sin actualizar' }).waitFor();
    await screenshot(page, 'sin-conexion');

    // Backoff: the probes spread out (1 s, 2 s, 4 s…) and the screens do not retry on their own.
    await until('three probes of /health', () => probes.length >= 3);
    const gaps = probes.slice(1).map((at, i) => at - probes[i]!);
    t.ok(gaps[0]! >= 1800 && gaps[1]! >= 3600, `the pauses between probes grow (${gaps.join(', ')} ms)`);
    t.ok(apiWhileDown.length <= 2, `no request storm while down: ${apiWhileDown.length} API requests (${apiWhileDown.join(', ')})`);

    await stage.app.resume();
    down = false;
    await banner.waitFor({ state: 'detached' });
    t.pass('the banner goes away once the server answers again');
    await page.locator('.stat-card.is-stale').first().waitFor({ state: 'detached' });

    // A change made after the restart reaches the open page through the reconnected stream.
    const sameDocument = await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await api(stage.app, 'POST', 'contacts', { firstName: 'Bruno', lastName: 'Después', tags: [] }, session.token);
    await contactsValue(page).filter({ hasText: /^2$/ }).waitFor();
    t.ok(sameDocument && (await page.evaluate(() => (window as unknown as { marker?: boolean }).marker === true)), 'without a reload');
    await page.locator('.activity-list li', { hasText: 'Bruno Después' }).waitFor();
    t.pass('the recent activity follows too');
  });

  t.test('a request that fails while down marks the analytics screen stale, not zero', async (t) => {
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(20_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto('/analytics');
    const total = page.locator('.stat-card', { hasText: 'Total Contactos' }).locator('.stat-value');
    await total.filter({ hasText: /^2$/ }).waitFor();
    // Offline for this page only: every request fails as if the server were gone.
    await page.route('**/*', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Periodo', { exact: true }).selectOption('7d');
    await page.getByRole('alert').filter({ hasText: BANNER }).waitFor();
    await total.filter({ hasText: '2 (sin actualizar)' }).waitFor();
    t.pass('the figures of the last load stay, marked stale');
    await page.unroute('**/*');
    await page.getByRole('alert').filter({ hasText: BANNER }).waitFor({ state: 'detached' });
    await page.locator('.analytics:not(.is-stale)').waitFor();
    t.equal(await page.getByLabel('Periodo', { exact: true }).inputValue(), '7d', 'the period asked for while down loads once back');
  });
});
