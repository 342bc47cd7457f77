// The website chat ("Chat web") end to end in a browser: the owner creates it in Configuración and pastes its snippet in a page of another origin under a strict CSP; a visitor writes there, a member answers from Conversaciones and the visitor sees it live; a website not allowed gets no chat (403); keyboard, and the panel at 360 px.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import type { Test } from 'tap';
import type { Browser, BrowserContextOptions, ConsoleMessage, Locator, Page } from 'playwright-core';
import type { WidgetBody, WidgetSettings } from '@asistente/contracts';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, ROOT, screenshot, signedInPage, type RunningApp, type Session } from './fixtures/harness.js';
import { startWebsite, type Website } from './fixtures/website.js';

const WIDGET_GZIP_BUDGET = 15 * 1024;

const card = (page: Page) => page.getByRole('region', { name: 'Chat web' });
/** The chat on the owner's website (Playwright's locators reach into its shadow root). */
const chat = (page: Page) => page.locator('[data-asistente-widget]');
const bubble = (page: Page) => chat(page).getByRole('button', { name: 'Abrir chat' });

/** Whether `locator` is the focused element of its own root (the document, or the widget's shadow root). */
const hasFocus = (locator: Locator) =>
  locator.evaluate((el) => (el.getRootNode() as Document | ShadowRoot).activeElement === el).catch(() => false);

async function untilFocused(locator: Locator): Promise<boolean> {
  const element = await locator.elementHandle();
  return locator.page().waitForFunction((el) => el !== null && (el.getRootNode() as Document | ShadowRoot).activeElement === el, element, { timeout: 5_000 }).then(
    () => true,
    () => false,
  );
}

/** A visitor's browser: nobody signed in, on the owner's website; it keeps what the page's CSP refused. */
async function visitorPage(t: Test, browser: Browser, options: BrowserContextOptions): Promise<{ page: Page; refusedByCsp: string[] }> {
  const context = await browser.newContext({ locale: 'es-ES', ...options });
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const refusedByCsp: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.text().includes('Content Security Policy')) refusedByCsp.push(message.text());
  });
  return { page, refusedByCsp };
}

async function widgetOf(app: RunningApp, session: Session, body: WidgetBody): Promise<WidgetSettings> {
  const created = await api<WidgetSettings>(app, 'POST', 'widget', body, session.token);
  if (created.status !== 201) throw new Error(`chat web no creado: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);
  let website: Website;
  let elsewhere: Website;
  t.before(async () => {
    website = await startWebsite(stage.app.url);
    elsewhere = await startWebsite(stage.app.url);
  });
  t.teardown(async () => {
    await website?.close();
    await elsewhere?.close();
  });

  t.test('widget.js is one self-contained classic script, served by the app, under its size budget', async (t) => {
    const source = readFileSync(join(ROOT, 'web/dist/widget.js'));
    const gzipped = gzipSync(source).length;
    t.comment(`widget.js: ${source.length} bytes, ${gzipped} bytes gzipped`);
    t.ok(gzipped <= WIDGET_GZIP_BUDGET, `at most 15 KB gzipped (${gzipped})`);
    t.notMatch(source.toString(), /^\s*(import|export)\s/m, 'no module syntax: a plain <script> runs it');
    const served = await fetch(`${stage.app.url}/widget.js`);
    t.equal(served.status, 200);
    t.match(served.headers.get('content-type'), /javascript/);
  });

  t.test('the owner creates the chat in Configuración; a visitor writes on the website and sees a member’s answer live', async (t) => {
    const owner = await registerUser(stage.app, { company: 'Panadería Lucía' });
    const settings = await signedInPage(t, stage, owner, { viewport: LAPTOP, path: '/settings', timeout: 15_000, clipboard: true });
    await card(settings).scrollIntoViewIfNeeded();
    await card(settings).getByText('Todavía no has creado el chat web.').waitFor();

    await card(settings).getByLabel('Nombre', { exact: true }).fill('Panadería Lucía');
    await card(settings).getByLabel('Color').fill('#0f766e');
    await card(settings).getByLabel('Saludo').fill('¡Hola! Pregúntanos por el pan del día.');
    await card(settings).getByLabel('Orígenes permitidos').fill('www.panaderia-lucia.es');
    await card(settings).getByRole('button', { name: 'Crear chat web' }).click();
    await card(settings).getByRole('alert').filter({ hasText: 'Origen inválido' }).waitFor();

    await card(settings).getByLabel('Orígenes permitidos').fill(`${website.origin}/`);
    await card(settings).getByRole('button', { name: 'Crear chat web' }).click();
    const code = card(settings).getByLabel('Código del chat web');
    await code.waitFor();
    const snippet = (await code.textContent()) ?? '';
    t.match(snippet, new RegExp(`^<script src="${stage.app.url}/widget\\.js" data-key="wk_[A-Za-z0-9_-]{22}" async></script>$`), 'the snippet names the app and the key');
    t.match(await card(settings).getByLabel('Clave pública').textContent(), /^wk_/);
    await card(settings).locator('.copyable-value', { has: settings.getByLabel('Código del chat web') }).getByRole('button', { name: 'Copiar' }).click();
    t.equal(await settings.evaluate(() => navigator.clipboard.readText()), snippet, '«Copiar» copies the snippet');

    // The same fields change it (PATCH), and stay changed.
    await card(settings).getByLabel('Saludo').fill('¡Hola! ¿Qué pan te apartamos?');
    await card(settings).getByRole('button', { name: 'Guardar cambios' }).click();
    await settings.locator('.toast', { hasText: 'Chat web guardado' }).waitFor();
    await settings.reload();
    t.equal(await card(settings).getByLabel('Saludo').inputValue(), '¡Hola! ¿Qué pan te apartamos?');
    t.equal(await card(settings).getByLabel('Orígenes permitidos').inputValue(), website.origin, 'the trailing slash is gone');

    const { page: visitor, refusedByCsp } = await visitorPage(t, stage.browser, { viewport: LAPTOP });
    await visitor.goto(website.page('/', snippet));
    await bubble(visitor).click();
    const panel = chat(visitor).getByRole('dialog', { name: 'Panadería Lucía' });
    await panel.getByText('¡Hola! ¿Qué pan te apartamos?').waitFor();
    t.ok(await untilFocused(panel.getByLabel('Escribe tu mensaje')), 'opening moves the focus into the panel');

    await panel.getByLabel('Escribe tu mensaje').fill('Hola, ¿tenéis pan sin gluten?');
    await panel.getByRole('button', { name: 'Enviar' }).click();
    await panel.locator('.msg.visitor', { hasText: 'Hola, ¿tenéis pan sin gluten?' }).waitFor();
    t.equal(await panel.getByLabel('Escribe tu mensaje').inputValue(), '', 'the composer is emptied');

    // A member answers from Conversaciones: the visitor's conversation is there, as a website visitor.
    const inbox = await signedInPage(t, stage, owner, { viewport: LAPTOP, path: '/conversations', timeout: 15_000 });
    const row = inbox.locator('.inbox-item', { hasText: 'Hola, ¿tenéis pan sin gluten?' });
    await row.getByText('Visitante web').waitFor();
    await row.locator('.inbox-channel', { hasText: 'Chat web' }).waitFor();
    await row.click();
    const thread = inbox.getByRole('region', { name: 'Conversación con Visitante web' });
    await thread.locator('.inbox-channel', { hasText: 'Chat web' }).waitFor();
    await thread.getByLabel('Respuesta al cliente').fill('Sí, los jueves sin falta.');
    await thread.getByRole('button', { name: 'Enviar', exact: true }).click();

    // Live: the visitor's page neither reloads nor polls; the answer comes by the stream.
    await panel.locator('.msg.business', { hasText: 'Sí, los jueves sin falta.' }).waitFor();
    t.equal(await panel.locator('.msg.visitor', { hasText: 'Hola, ¿tenéis pan sin gluten?' }).count(), 1, 'the visitor’s own message, sent back by the stream, is drawn once');

    // The optional details: a bad email is refused in Spanish, then they are kept.
    await panel.getByText('Déjanos tus datos').click();
    await panel.getByLabel('Nombre').fill('Lucía Gómez');
    await panel.getByLabel('Correo electrónico').fill('lucia@');
    await panel.getByRole('button', { name: 'Guardar mis datos' }).click();
    await panel.getByRole('alert').filter({ hasText: 'Correo inválido' }).waitFor();
    await panel.getByLabel('Correo electrónico').fill('lucia@ejemplo.com');
    await panel.getByRole('button', { name: 'Guardar mis datos' }).click();
    await panel.getByText('Gracias, ya tenemos tus datos.').waitFor();
    t.notOk(await panel.getByRole('alert').isVisible(), 'the error is gone');

    // A reload goes on with the same visitor and thread.
    await visitor.reload();
    await bubble(visitor).click();
    await panel.locator('.msg.business', { hasText: 'Sí, los jueves sin falta.' }).waitFor();
    await panel.locator('.msg.visitor', { hasText: 'Hola, ¿tenéis pan sin gluten?' }).waitFor();
    t.same(refusedByCsp, [], 'nothing of the widget is refused by the website’s strict CSP');
  });

  t.test('a website the owner did not allow gets no chat: the API answers 403 and the visitor sees nothing', async (t) => {
    const owner = await registerUser(stage.app);
    const widget = await widgetOf(stage.app, owner, { name: 'Panadería Lucía', color: '#0f766e', greeting: '¡Hola!', allowedOrigins: [website.origin] });
    const { page } = await visitorPage(t, stage.browser, { viewport: LAPTOP });
    // A response the browser refuses to the page (no Access-Control-Allow-Origin) reaches Playwright as a failed
    // request; the DevTools protocol still sees the server's status.
    const network = await page.context().newCDPSession(page);
    await network.send('Network.enable');
    const configUrl = `${stage.app.url}/api/widget/${widget.publicKey}/config`;
    const configIds = new Set<string>();
    network.on('Network.requestWillBeSent', (event) => {
      if (event.request.url === configUrl) configIds.add(event.requestId);
    });
    const configStatus = new Promise<number>((resolve) => {
      network.on('Network.responseReceivedExtraInfo', (event) => {
        if (configIds.has(event.requestId)) resolve(event.statusCode);
      });
    });
    const warned = page.waitForEvent('console', (message) => message.text().startsWith('Mi Asistente.IA (chat web)'));
    await page.goto(elsewhere.page('/ajena', widget.snippet));
    t.equal(await configStatus, 403, 'the server refuses the config to that origin');
    await warned;
    t.equal(await chat(page).count(), 0, 'no bubble');

    const direct = await fetch(`${stage.app.url}/api/widget/${widget.publicKey}/config`, { headers: { Origin: elsewhere.origin } });
    t.equal(direct.status, 403);
    t.equal(direct.headers.get('access-control-allow-origin'), null, 'the refusal is not readable by that page');
    t.match(await direct.json(), { code: 'WIDGET_ORIGIN_REFUSED', message: /\S/ });
  });

  t.test(`at ${PHONE.width} px, by keyboard: the bubble opens the panel across the screen, Enter sends, Escape closes back to the bubble`, async (t) => {
    const owner = await registerUser(stage.app);
    const widget = await widgetOf(stage.app, owner, { name: 'Panadería Lucía', color: '#fde047', greeting: '¡Hola! ¿En qué podemos ayudarte?', allowedOrigins: [website.origin] });
    const { page, refusedByCsp } = await visitorPage(t, stage.browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto(website.page('/movil', widget.snippet));
    await bubble(page).waitFor();

    await page.keyboard.press('Tab');
    t.ok(await untilFocused(bubble(page)), 'the bubble takes the focus by Tab');
    await page.keyboard.press('Enter');
    const panel = chat(page).getByRole('dialog', { name: 'Panadería Lucía' });
    await panel.waitFor();
    t.equal(await bubble(page).getAttribute('aria-expanded'), 'true');
    const text = panel.getByLabel('Escribe tu mensaje');
    t.ok(await untilFocused(text), 'the focus moves into the panel');
    const box = await panel.boundingBox();
    t.equal(box?.width, PHONE.width, 'the panel takes the phone’s whole width');

    await page.keyboard.type('¿Abrís el domingo?');
    await page.keyboard.press('Enter');
    await panel.locator('.msg.visitor', { hasText: '¿Abrís el domingo?' }).waitFor();
    await screenshot(page, 'chat-web-360');

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    t.ok(await untilFocused(bubble(page)), 'Escape gives the focus back to the bubble');
    t.notOk(await hasFocus(text), 'the composer no longer has it');
    t.equal(await bubble(page).getAttribute('aria-expanded'), 'false');
    t.same(refusedByCsp, [], 'nothing refused by the CSP');
  });
});
