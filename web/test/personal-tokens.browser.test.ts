import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInPage } from './fixtures/harness.js';

const card = (page: Page) => page.getByRole('region', { name: 'Tokens de acceso' });
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.test('the owner creates a token, copies it once, sees its use and revokes it in "Tokens de acceso"', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000, clipboard: true });

    const tokens = card(page);
    await tokens.getByText('No tienes tokens activos.').waitFor();
    await tokens.getByRole('button', { name: 'Nuevo token' }).click();
    const form = tokens.getByRole('form', { name: 'Nuevo token de acceso' });
    await form.getByRole('button', { name: 'Crear token' }).click();
    await form.getByText('El nombre del token es requerido').waitFor();
    await form.getByText('Elige al menos un permiso').waitFor();

    await form.getByLabel('Nombre').fill('Zapier');
    t.same(
      await form.locator('.personal-token-group').evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label'))),
      ['Contactos', 'WhatsApp', 'Conversaciones', 'Correo', 'Calendario', 'Teams', 'Analítica'],
      'scopes grouped per area',
    );
    await form.getByRole('group', { name: 'Contactos' }).getByLabel('Ver contactos').check();
    await form.getByRole('group', { name: 'Analítica' }).getByLabel('Ver la analítica').check();
    await form.getByLabel('Caducidad').selectOption({ label: '30 días' });
    t.same(await form.getByLabel('Caducidad').locator('option').allTextContents(), ['30 días', '90 días', '365 días', 'Sin caducidad']);
    await form.getByRole('button', { name: 'Crear token' }).click();

    await tokens.getByText('Copia el token «Zapier» ahora: no se volverá a mostrar.').waitFor();
    const token = (await tokens.getByLabel('Token de acceso').textContent()) ?? '';
    t.match(token, /^asis_pat_[A-Za-z0-9_-]{43}$/, 'shown once');
    await tokens.getByRole('button', { name: 'Copiar' }).click();
    await page.locator('.toast', { hasText: 'Token copiado' }).waitFor();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), token, 'copied');

    await page.setViewportSize(PHONE);
    t.equal(await overflow(page), 0, 'the token wraps on a phone');
    await screenshot(page, 'tokens-de-acceso-creado-movil');
    await page.setViewportSize(LAPTOP);

    const row = tokens.getByRole('listitem').filter({ hasText: 'Zapier' });
    await row.getByText('Nunca usado').waitFor();
    t.match(await row.textContent(), /Ver contactos · Ver la analítica/);
    t.match(await row.textContent(), /Caduca el \d{1,2} \w+\.? \d{4}/);
    t.match(await row.textContent(), new RegExp(`${token.slice(0, 15).replace(/[-]/g, '\\-')}…`), 'its first characters');

    await tokens.getByRole('button', { name: 'Listo, ya lo he copiado' }).click();
    t.equal(await page.getByText(token).count(), 0, 'not shown again');

    t.equal((await api(stage.app, 'GET', 'contacts', undefined, token)).status, 200, 'the token reads contacts');
    await page.reload();
    await card(page).getByRole('listitem').filter({ hasText: 'Zapier' }).getByText(/Último uso: \d/).waitFor();
    await screenshot(page, 'tokens-de-acceso-portatil');

    await card(page).getByRole('button', { name: 'Revocar Zapier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revocar token' });
    await dialog.getByText('¿Revocar «Zapier»? Lo que lo use perderá el acceso al momento. No se puede deshacer.').waitFor();
    await dialog.getByRole('button', { name: 'Revocar' }).click();
    await page.locator('.toast', { hasText: 'Token revocado' }).waitFor();
    await card(page).getByText('No tienes tokens activos.').waitFor();
    t.equal((await api(stage.app, 'GET', 'contacts', undefined, token)).status, 401, 'refused at once');
  });
  t.test('"API y automatizaciones" gives the API and MCP addresses of this install, the header, the reference and what each permission allows', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000, clipboard: true });
    const access = page.getByRole('region', { name: 'API y automatizaciones' });
    t.equal(await access.getByLabel('Dirección de la API').textContent(), `${stage.app.url}/api`);
    t.equal(await access.getByLabel('Dirección del servidor MCP').textContent(), `${stage.app.url}/api/mcp`);
    t.equal(await access.getByLabel('Cabecera de autenticación').textContent(), 'Authorization: Bearer asis_pat_…');
    const config = JSON.parse((await access.getByLabel('Configuración del cliente MCP').textContent()) ?? '{}') as { servers: Record<string, { url: string }> };
    t.equal(config.servers['mi-asistente']?.url, `${stage.app.url}/api/mcp`, 'a client configuration that names this install');
    const docs = access.getByRole('link', { name: 'Abrir la referencia de la API' });
    t.equal(await docs.getAttribute('href'), `${stage.app.url}/api/docs`);
    t.equal((await fetch(`${stage.app.url}/api/docs`)).status, 200, 'the reference is there');
    await access.getByText('Responder, asignar, resolver y añadir notas').waitFor();
    await access.getByRole('button', { name: 'Copiar' }).first().click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), `${stage.app.url}/api`, 'copied');
    await page.setViewportSize(PHONE);
    t.equal(await overflow(page), 0, 'nothing wider than a phone');
    await screenshot(page, 'api-y-automatizaciones-movil');

    await page.setViewportSize(LAPTOP);
    await page.goto(`${stage.app.url}/api/docs`);
    const authorize = page.getByRole('button', { name: 'Autorizar' });
    // swagger-ui's bundle is 1.6 MB: on a busy two-core machine it renders after the page's usual wait.
    await authorize.waitFor({ timeout: 60_000 });
    await authorize.click();
    await page.getByText('Autorizaciones disponibles').waitFor();
    t.equal(await page.title(), 'Referencia de la API · Mi Asistente.IA', "the reference's chrome in Spanish");
    t.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    await screenshot(page, 'referencia-api-autorizar');
  });
});
