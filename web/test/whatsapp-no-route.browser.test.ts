// WhatsApp with no route to its servers (WHATSAPP_WS_URL at a closed port, the real Baileys socket): the
// screen opens on the conversations, offers no reset of a session that does not exist, and once the attempts
// stop says the server could not reach WhatsApp, with no QR guidance and no activity or outage figures.
import t from 'tap';
import type { Browser } from 'playwright-core';
import { expectCleanLayout } from './fixtures/layout-check.js';
import { api, browserSuite, freePort, launchBrowser, registerUser, screenshot, seriousA11yViolations, signedInContext, startApp, type RunningApp } from './fixtures/harness.js';

/** What a screen must not say while no QR was ever shown: the phone took no part. */
const PHONE_GUIDANCE = /escanea|Dispositivos vinculados|Actualiza WhatsApp|tu teléfono tiene/i;

browserSuite(t, () => {
  let app: RunningApp;
  let browser: Browser;

  t.before(async () => {
    // freePort's port is closed again when it answers: nothing listens there, every attempt is refused.
    const closed = await freePort();
    app = await startApp({ WHATSAPP_WS_URL: `ws://127.0.0.1:${closed}/ws/chat`, WHATSAPP_CONNECT_MAX_ATTEMPTS: '2' });
    browser = await launchBrowser();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
  });

  t.test('no route to WhatsApp: conversations first, no reset, "could not reach WhatsApp\'s servers", no QR talk, no figures', async (t) => {
    const session = await registerUser(app);
    const context = await signedInContext(browser, app, session);
    t.teardown(() => context.close());
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await page.goto('/whatsapp');
    await page.getByRole('heading', { name: 'WhatsApp Business', level: 1 }).waitFor();

    const conversations = page.getByRole('tab', { name: 'Conversaciones' });
    t.equal(await conversations.getAttribute('aria-selected'), 'true', 'the conversations tab is open at first');
    await page.getByRole('tabpanel').and(page.locator('#wa-panel-conversations')).waitFor();
    for (const name of ['Prompts IA', 'Estadísticas']) t.equal(await page.getByRole('tab', { name }).count(), 1, `the "${name}" tab stays`);
    await page.getByRole('button', { name: 'Conectar WhatsApp' }).waitFor();
    t.equal(await page.getByRole('button', { name: 'Restablecer sesión' }).count(), 0, 'no "Restablecer sesión" on a first visit');

    await page.getByRole('button', { name: 'Conectar WhatsApp' }).click();
    const trouble = page.getByRole('alert').filter({ hasText: 'No se pudo contactar con los servidores de WhatsApp.' });
    await trouble.waitFor();
    const state = await api<{ state: string; qrShown: boolean }>(app, 'GET', 'whatsapp/status', undefined, session.token);
    t.match(state.body, { state: 'failed', qrShown: false }, 'the server stopped trying, and no QR ever came');
    t.ok(await trouble.getByText('Revisa la conexión a internet del servidor.', { exact: false }).isVisible(), "the server's connection is what to check");
    await trouble.getByRole('button', { name: 'Reintentar' }).waitFor();

    const card = page.locator('.wa-connection');
    t.notMatch(await card.innerText(), PHONE_GUIDANCE, 'no phone or QR guidance on the card');
    t.equal(await page.getByRole('img', { name: 'Código QR para vincular WhatsApp' }).count(), 0, 'no QR');
    t.equal(await page.getByRole('button', { name: 'Restablecer sesión' }).count(), 0, 'still nothing to reset');

    const health = page.locator('.wa-health');
    await health.locator('dd', { hasText: /^No se pudo conectar \(desde hace/ }).waitFor();
    const words = await health.innerText();
    for (const figure of ['Última actividad', 'Cortes de conexión', 'no se pudieron leer']) t.notOk(words.includes(figure), `no "${figure}" before a first link`);
    t.notMatch(words, PHONE_GUIDANCE, 'no phone or QR guidance in the health panel');

    t.same(await seriousA11yViolations(page), [], 'no serious accessibility findings');
    await screenshot(page, 'whatsapp-sin-ruta-a-whatsapp');
    await expectCleanLayout(t, page, 'WhatsApp with no route to its servers');
  });
});
