// What a new owner met in their second week (issue 42): each screen says what is true, by name, with reasons and figures.
import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInContext, signedInPage } from './fixtures/harness.js';

const region = (page: Page, name: string) => page.getByRole('region', { name });
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.test('the dashboard greets the owner by first name in neutral words, and without a name says no email', async (t) => {
    const session = await registerUser(stage.app, { firstName: 'Lucía' });
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/', timeout: 10_000 });
    await page.getByText('Te damos la bienvenida, Lucía', { exact: true }).waitFor();

    // A week on, and then a profile with no first name: the greeting falls back to a plain "Hola".
    let firstName = 'Lucía';
    await page.route('**/api/auth/me', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: { firstName: string; createdAt: string } };
      body.user = { ...body.user, firstName, createdAt: new Date(Date.now() - 30 * 86_400_000).toISOString() };
      await route.fulfill({ response, json: body });
    });
    await page.reload();
    await page.getByText('Hola, Lucía', { exact: true }).waitFor();
    firstName = '';
    await page.reload();
    await page.locator('.page-subtitle', { hasText: /^Hola$/ }).waitFor();
    t.notMatch((await page.locator('.page-header').textContent()) ?? '', /Bienvenid|@/, 'no gendered word and no email in the greeting');
  });

  t.test('"Tokens de acceso" after every token was revoked says there are no active tokens, not that none was made', async (t) => {
    const session = await registerUser(stage.app);
    const made = await api<{ id: string }>(stage.app, 'POST', 'auth/tokens', { name: 'Zapier', scopes: ['contacts:read'] }, session.token);
    t.equal(made.status, 201);
    t.equal((await api(stage.app, 'DELETE', `auth/tokens/${made.body.id}`, undefined, session.token)).status, 204);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000 });
    const tokens = region(page, 'Tokens de acceso');
    await tokens.getByText('No tienes tokens activos.').waitFor();
    t.equal(await tokens.getByText(/Todavía no has creado/).count(), 0, 'nothing untrue');
  });

  t.test('"Descargar mis datos" still offers the ready archive after a reload, until it expires', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: PHONE, path: '/settings', timeout: 15_000 });
    const card = region(page, 'Descargar mis datos');
    await card.getByRole('button', { name: 'Descargar mis datos' }).click();
    await card.getByRole('link', { name: /^Descargar el ZIP/ }).waitFor();
    const until = await card.getByText(/disponible hasta el/).textContent();

    await page.reload();
    await region(page, 'Descargar mis datos').getByRole('link', { name: /^Descargar el ZIP/ }).waitFor();
    t.equal(await region(page, 'Descargar mis datos').getByText(/disponible hasta el/).textContent(), until, 'the same archive, the same expiry');
    t.equal(await region(page, 'Descargar mis datos').getByRole('button', { name: 'Preparar otra vez' }).count(), 1);
    const [download] = await Promise.all([page.waitForEvent('download'), region(page, 'Descargar mis datos').getByRole('link', { name: /^Descargar el ZIP/ }).click()]);
    t.match(download.suggestedFilename(), /^mis-datos-\d{4}-\d{2}-\d{2}\.zip$/, 'and it still downloads');
    t.equal(await overflow(page), 0, 'fits a phone');
    await screenshot(page, 'descargar-datos-tras-recargar-movil');
  });

  t.test('"Conservación de datos" says before saving how much a shorter period erases, and asks first', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000 });
    const card = region(page, 'Conservación de datos');
    await card.getByLabel('Mensajes de WhatsApp').selectOption({ label: '30 días' });
    // Asked of the WhatsApp service itself: a new account has nothing that old.
    await card.getByText('No hay nada de más de 30 días: no se borrará nada.').waitFor();

    // The assistant's runs of a busy account, as its service would count them.
    const asked: string[] = [];
    await page.route((url) => url.pathname === '/api/ai/retention/preview', async (route) => {
      asked.push(new URL(route.request().url()).search);
      await route.fulfill({ json: { days: 90, before: new Date().toISOString(), count: 12345 } });
    });
    await card.getByLabel('Ejecuciones del asistente IA').selectOption({ label: '90 días' });
    const warning = 'Al guardar se borrarán en las próximas 24 horas, sin poder recuperarlos, 12.345 ejecuciones del asistente de más de 90 días.';
    await card.getByText(warning).waitFor();
    t.same(asked, ['?days=90'], 'the service is asked for the number of days chosen');
    await screenshot(page, 'conservacion-aviso-portatil');

    await card.getByRole('button', { name: 'Guardar' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Borrar los datos antiguos?' });
    await dialog.getByText('Al guardar se borrarán en las próximas 24 horas y no se podrán recuperar: 12.345 ejecuciones del asistente de más de 90 días.').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    t.same((await api(stage.app, 'GET', 'account/retention', undefined, session.token)).body, { whatsappDays: null, emailBodyDays: null, aiRunDays: null }, 'cancelled: nothing saved');

    await card.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByRole('button', { name: 'Guardar y borrar' }).click();
    await page.locator('.toast', { hasText: 'Conservación de datos guardada' }).waitFor();
    t.same((await api(stage.app, 'GET', 'account/retention', undefined, session.token)).body, { whatsappDays: 30, emailBodyDays: null, aiRunDays: 90 });
    t.equal(await card.getByText(warning).count(), 0, 'once saved, the period is no longer shorter than the saved one');
    t.equal((await api(stage.app, 'GET', 'ai/retention/preview?days=0', undefined, session.token)).status, 400, 'the service checks the days');
  });

  t.test('after "Eliminar mi cuenta" the login page shows the goodbye alone, not the red toast of a mistyped password', async (t) => {
    const session = await registerUser(stage.app);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    // Every red toast the login page ever shows, however briefly: one that came and went would pass a look at the end.
    await context.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { redToasts: seen });
      new MutationObserver(() => {
        if (location.pathname !== '/login') return;
        for (const toast of document.querySelectorAll('.toast-error')) if (!seen.includes(toast.textContent ?? '')) seen.push(toast.textContent ?? '');
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    await page.setViewportSize(LAPTOP);
    await page.goto('/settings');
    const danger = region(page, 'Eliminar mi cuenta');
    const confirm = page.getByRole('dialog', { name: '¿Eliminar tu cuenta?' }).getByRole('button', { name: 'Sí, eliminar mi cuenta' });
    // A mistyped password first: its red toast is still up when the right one is typed at once.
    await danger.getByLabel('Tu contraseña, para confirmar', { exact: true }).fill('no-es-esta');
    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await confirm.click();
    await page.locator('.toast-error', { hasText: 'La contraseña no es correcta' }).waitFor();
    await danger.getByLabel('Tu contraseña, para confirmar', { exact: true }).fill(session.password);
    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await confirm.click();
    await page.waitForURL('**/login');
    await page.getByText('Tu cuenta y todos sus datos se han eliminado. Gracias por haber usado Mi Asistente.IA.').waitFor();
    // Whatever the screens left behind had to say (a refused poll, an ended stream) must not reach this page.
    await page.getByRole('button', { name: 'Iniciar Sesión' }).waitFor();
    await page.waitForLoadState('networkidle');
    const shown = (await page.locator('.toast, [role="alert"], .form-error').allTextContents()).filter((text) => text.trim() !== '');
    t.same(shown, [], 'no message beside the goodbye');
    t.same(await page.evaluate(() => (window as unknown as { redToasts: string[] }).redToasts), [], 'no red toast came and went either');
    await screenshot(page, 'eliminar-cuenta-solo-despedida');
  });

  t.test('a contact re-import says why each line was skipped, and a contact without email is matched by phone', async (t) => {
    const session = await registerUser(stage.app);
    t.equal((await api(stage.app, 'POST', 'contacts', { firstName: 'Rosa', lastName: 'Vidal', phone: '+34 611 22 33 44', tags: [] }, session.token)).status, 201);
    t.equal((await api(stage.app, 'POST', 'contacts', { firstName: 'Pedro', lastName: 'Gil', email: 'pedro@acme.es', tags: [] }, session.token)).status, 201);
    const file = ['Nombre;Apellido;Correo;Teléfono', 'Rosa;Vidal;;611 223 344', 'Pedro;Gil;pedro@acme.es;', 'Marta;Ruiz;;622 000 111', ';Sin nombre;;'].join('\n');
    const page = await signedInPage(t, stage, session, { viewport: PHONE, path: '/contacts', timeout: 30_000 });
    await page.getByRole('button', { name: 'Importar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar contactos' });
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog.getByRole('region', { name: 'Asignación de columnas' }).waitFor();
    await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
    const report = dialog.getByRole('region', { name: 'Resultado de la importación' });
    await report.waitFor();
    t.same(await report.locator('.import-counts dd').allTextContents(), ['1', '0', '2'], 'Marta created; Rosa and Pedro skipped');
    t.same(await report.getByRole('list', { name: 'Líneas omitidas' }).getByRole('listitem').allTextContents(), [
      'Línea 2: ya existe (mismo teléfono)',
      'Línea 3: ya existe (mismo correo)',
    ]);
    await report.getByText('Línea 5: Falta el nombre').waitFor();
    t.equal(await overflow(page), 0, 'the reasons fit a phone');
    await screenshot(page, 'contactos-omitidos-con-motivo-movil');
    const contacts = await api<{ total: number }>(stage.app, 'GET', 'contacts', undefined, session.token);
    t.equal(contacts.body.total, 3, 'Rosa is not duplicated');
  });

  t.test('the template editor flags a variable no contact fills while it is typed', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/emails', timeout: 10_000 });
    await page.getByRole('button', { name: '+ Nueva plantilla' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva plantilla' });
    await dialog.getByLabel('Asunto').fill('Hola {nombre}');
    await dialog.getByLabel('Mensaje').fill('Tu pedido de {empresa} está listo.');
    t.equal(await dialog.getByText(/Variable(s)? desconocida/).count(), 0, 'known variables raise nothing');
    await dialog.getByLabel('Mensaje').fill('Tu pedido de {producto} cuesta {precio} €, {nombre}.');
    await dialog.getByText('Variables desconocidas: {producto}, {precio}. Ningún contacto las rellena: se quedarían sin completar al enviar.').waitFor();
    await screenshot(page, 'plantilla-variable-desconocida');
    await dialog.getByLabel('Mensaje').fill('Tu pedido de {producto} está listo, {nombre}.');
    await dialog.getByText('Variable desconocida: {producto}. Ningún contacto la rellena: se quedaría sin completar al enviar.').waitFor();
    await dialog.getByLabel('Mensaje').fill('Tu pedido está listo, {nombre}.');
    await dialog.getByText(/Variable(s)? desconocida/).waitFor({ state: 'detached' });
    t.pass('the flag goes once the variable is fixed');
  });
});
