import t from 'tap';
import type { Page, Route } from 'playwright-core';
import { api, appAndBrowser, browserSuite, registerUser, screenshot, seriousA11yViolations, signedInContext, takesFocus, type Session } from './fixtures/harness.js';

const TAG_TOO_LONG = 'Cada etiqueta admite como máximo 50 caracteres';
const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
const serverError = (route: Route) => json(route, 500, { statusCode: 500, code: 'X', error: 'X', message: 'Error interno' });

browserSuite(t, () => {
  const stage = appAndBrowser(t);


  async function newPage(session: Session): Promise<Page> {
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    return context.newPage();
  }

  t.test('toasts: the same message merges, at most three, each dismissible and announced', async (t) => {
    const page = await newPage(await registerUser(stage.app));
    await page.goto('/openai');
    const save = page.getByRole('button', { name: 'Guardar Key' });
    await page.getByRole('heading', { name: 'OpenAI API Key' }).waitFor();
    for (let i = 0; i < 4; i++) await save.click();
    const empty = page.locator('.toast', { hasText: 'Ingresa tu API key' });
    await empty.and(page.locator('[data-count="4"]')).waitFor();
    t.equal(await empty.count(), 1, 'four identical errors are one toast');
    t.equal(await empty.getAttribute('role'), 'alert', 'an error is announced as an alert');
    t.match(await empty.textContent(), /×4/, 'it shows how many times it happened');

    await page.route('**/api/ai/provider/openai/key', (route) => (route.request().method() === 'PUT' ? serverError(route) : route.continue()));
    await page.getByLabel('API key', { exact: true }).fill('sk-uno-0123456789abcdef');
    await save.click();
    await page.locator('.toast', { hasText: 'No se pudo guardar la API key' }).waitFor();
    await page.unroute('**/api/ai/provider/openai/key');
    await page.getByLabel('API key', { exact: true }).fill('clave-sin-prefijo');
    await save.click();
    await page.locator('.toast', { hasText: 'La API key debe empezar por sk-' }).waitFor();
    await page.getByLabel('API key', { exact: true }).fill('sk-prueba-0123456789abcdefWXYZ');
    await save.click();
    const saved = page.locator('.toast', { hasText: 'API key guardada' });
    await saved.waitFor();
    t.equal(await saved.getAttribute('role'), 'status', 'a success is announced politely');
    t.ok((await page.locator('.toast').count()) <= 3, 'never more than three on screen');
    t.equal(await empty.count(), 0, 'the oldest went first');
    await saved.getByRole('button', { name: 'Cerrar notificación' }).click();
    await saved.waitFor({ state: 'detached' });
    t.pass('a toast closes with its button');
  });

  t.test('forms: a dirty dialog asks before closing, limits are checked before sending, server errors keep focus inside', async (t) => {
    const session = await registerUser(stage.app);
    const page = await newPage(session);
    await page.goto('/contacts');
    const open = page.getByRole('button', { name: 'Nuevo Contacto' });
    const dialog = page.getByRole('dialog', { name: 'Nuevo Contacto' });
    const discard = page.getByRole('dialog', { name: '¿Descartar los cambios?' });

    await open.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    t.pass('an untouched form closes on Escape at once');

    await open.click();
    await dialog.getByLabel('Nombre').fill('Rosa');
    await page.keyboard.press('Escape');
    await discard.waitFor();
    t.ok(await discard.evaluate((el) => el.contains(document.activeElement)), 'the question takes the focus');
    await discard.getByRole('button', { name: 'Seguir editando' }).click();
    await discard.waitFor({ state: 'detached' });
    t.equal(await dialog.getByLabel('Nombre').inputValue(), 'Rosa', 'what was typed is still there');
    t.ok(await dialog.evaluate((el) => el.contains(document.activeElement)), 'focus is back in the form');
    await page.mouse.click(5, 5);
    await discard.waitFor();
    t.pass('a click outside asks too');
    await page.keyboard.press('Escape');
    await discard.waitFor({ state: 'detached' });
    t.equal(await dialog.count(), 1, 'Escape on the question keeps the form');

    const longTag = 'x'.repeat(51);
    const server = await api<{ message: string }>(stage.app, 'POST', 'contacts', { firstName: 'A', lastName: 'B', tags: [longTag] }, session.token);
    t.same([server.status, server.body.message], [400, TAG_TOO_LONG], 'the server refuses a 51-character tag with this sentence');
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/api/contacts') && posts.push(r.url()));
    await dialog.getByLabel('Apellido').fill('Pérez');
    const tags = dialog.getByLabel('Etiquetas');
    await tags.fill(longTag);
    await dialog.getByText(TAG_TOO_LONG).waitFor();
    t.equal(await tags.getAttribute('aria-invalid'), 'true', 'the tag field is marked invalid as it is typed');
    await tags.press('Enter');
    t.equal(await dialog.locator('.tag').count(), 0, 'Enter does not add it');
    await dialog.getByRole('button', { name: 'Crear Contacto' }).click();
    t.ok(await takesFocus(tags), 'submitting focuses the tag to fix');
    t.same(posts, [], 'nothing was sent');

    await tags.fill('cliente');
    await page.route('**/api/contacts', (route) => (route.request().method() === 'POST' ? serverError(route) : route.continue()));
    await dialog.getByRole('button', { name: 'Crear Contacto' }).click();
    const message = dialog.getByRole('alert').filter({ hasText: 'Error interno' });
    await message.waitFor();
    t.ok(await takesFocus(message), "focus lands on the server's message, inside the dialog");
    t.equal(await dialog.getByLabel('Nombre').inputValue(), 'Rosa', 'nothing typed is lost');
    await screenshot(page, 'contacto-error-servidor');
    await page.unroute('**/api/contacts');
    await dialog.getByRole('button', { name: 'Crear Contacto' }).click();
    await dialog.waitFor({ state: 'detached' });
    t.pass('saved once the server accepts it');
  });

  t.test('first visit: a welcome and a checklist that follows what is connected', async (t) => {
    const session = await registerUser(stage.app);
    const page = await newPage(session);
    await page.goto('/');
    await page.getByText(`Te damos la bienvenida, ${session.user.firstName}`, { exact: true }).waitFor();
    const checklist = page.getByRole('region', { name: 'Primeros pasos' });
    await checklist.getByText('0 de 6 completados').waitFor();
    for (const step of ['Conecta WhatsApp', 'Conecta tu correo', 'Conecta un calendario', 'Conecta Microsoft Teams', 'Guarda tu API key de OpenAI', 'Importa tus contactos']) {
      await checklist.getByRole('link', { name: step }).waitFor();
    }
    const actions = page.getByRole('region', { name: 'Acciones Rápidas' });
    t.match(await actions.getByRole('link', { name: /Nuevo Mensaje/ }).textContent(), /Conecta WhatsApp primero/, 'an action that cannot work yet says what it needs');
    t.notMatch(await actions.getByRole('link', { name: /Nuevo Contacto/ }).textContent(), /primero/, 'new contact works from the start');
    t.same(await seriousA11yViolations(page), [], 'first-run dashboard: no serious or critical accessibility findings');
    await screenshot(page, 'primera-visita');

    await api(stage.app, 'PUT', 'ai/provider/openai/key', { apiKey: 'sk-prueba-0123456789abcdefWXYZ' }, session.token);
    await api(stage.app, 'POST', 'contacts', { firstName: 'Primer', lastName: 'Contacto', tags: [] }, session.token);
    await page.route('**/api/whatsapp/status', (route) => json(route, 200, { connected: true, state: 'connected' }));
    await page.route('**/api/emails/integrations', (route) => json(route, 200, [{ id: 'x', provider: 'imap', email: 'a@b.c', connected: true }]));
    // Failing or missing services count as not connected.
    await page.route('**/api/events/providers', serverError);
    await page.route('**/api/teams/status', (route) => route.abort('connectionrefused'));
    await page.reload();
    await checklist.getByText('4 de 6 completados').waitFor();
    for (const done of ['WhatsApp conectado', 'Correo conectado', 'API key de OpenAI guardada', 'Contactos importados']) {
      await checklist.getByText(done).waitFor();
    }
    await checklist.getByRole('link', { name: 'Conecta un calendario' }).waitFor();
    await checklist.getByRole('link', { name: 'Conecta Microsoft Teams' }).waitFor();
    await page.getByText(`Hola, ${session.user.firstName}`, { exact: true }).waitFor();
    t.notMatch(await actions.getByRole('link', { name: /Nuevo Mensaje/ }).textContent(), /primero/, 'with WhatsApp connected, Nuevo Mensaje is a plain action');
    t.match(await actions.getByRole('link', { name: /Agendar Cita/ }).textContent(), /Conecta un calendario primero/, 'a failing calendar status counts as not connected');
  });

  t.test('charts: weekly for 1 año, counts from 0, exact tooltips and a table of every chart', async (t) => {
    const page = await newPage(await registerUser(stage.app));
    const days = 365;
    const today = Date.UTC(2026, 10, 23);
    const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
    const figures: Record<string, unknown> = {
      dashboard: { totalContacts: 465, totalEvents: 12, totalEmails: 30, totalMessages: 40 },
      activity: dates.map((date, i) => ({ date, activity: (i % 7) + 1 })),
      'contacts-growth': dates.map((date, i) => ({ date, contacts: 100 + i })),
      emails: { sent: 30, received: 10, opened: 12, clicked: 3 },
      whatsapp: { sent: 40, received: 20, contacts: 5, autoReplies: 2 },
      teams: { messages: 4 },
      productivity: ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'].map((day, i) => ({ day, emails: i, messages: i + 1, meetings: 1, contacts: 2 })),
    };
    await page.route('**/api/analytics/*?*', (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
      return name in figures ? json(route, 200, figures[name]) : route.continue();
    });
    await page.goto('/analytics');
    await page.getByLabel('Periodo', { exact: true }).selectOption('1y');
    const activity = page.getByRole('region', { name: 'Actividad General', exact: true });
    await activity.getByRole('img', { name: 'Actividad General por semana' }).waitFor();
    await activity.getByText('Ver datos en tabla').click();
    const rows = activity.locator('table tbody tr');
    const weeks = await rows.count();
    t.ok(weeks >= 52 && weeks <= 54, `365 days drawn as ${weeks} weeks`);
    t.match(await rows.first().locator('th').textContent(), /de/, 'each row is dated by its week');
    const total = (await rows.locator('td').allTextContents()).reduce((sum, x) => sum + Number(x.replace(/\./g, '')), 0);
    t.equal(total, (figures.activity as { activity: number }[]).reduce((s, p) => s + p.activity, 0), 'the weeks add up to the days');

    const growth = page.getByRole('region', { name: 'Crecimiento de Contactos', exact: true });
    await growth.locator('.recharts-line-curve').waitFor();
    const yTicks = await growth.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents();
    t.equal(yTicks[0], '0', `the contacts axis starts at 0 (${yTicks.join(', ')})`);
    await growth.getByText('Ver datos en tabla').click();
    t.equal(await growth.locator('table tbody tr').last().locator('td').textContent(), '464', 'a week shows its closing total');

    const surface = activity.locator('svg.recharts-surface').first();
    const box = await surface.boundingBox();
    t.ok(box, 'the chart is drawn');
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    const tooltip = activity.locator('.recharts-tooltip-wrapper');
    await tooltip.getByText(/Semana del/).waitFor();
    const label = (await tooltip.locator('.recharts-tooltip-label').textContent())!.replace('Semana del ', '');
    const value = (await tooltip.locator('.recharts-tooltip-item-value').textContent())!;
    const row = activity.locator('table tbody tr', { has: page.locator('th', { hasText: label }) });
    t.equal(await row.locator('td').textContent(), value, `the tooltip shows the exact figure of its week (${label}: ${value})`);

    for (const title of ['Distribución por Canal', 'Productividad por Día']) {
      const chart = page.getByRole('region', { name: title, exact: true });
      await chart.getByText('Ver datos en tabla').click();
      t.ok((await chart.locator('table tbody tr').count()) > 0, `${title}: a table view`);
    }
    t.same(await seriousA11yViolations(page), [], 'analytics with tables open: no serious or critical accessibility findings');
  });
});
