import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import {
  api,
  browserSuite,
  launchBrowser,
  registerUser,
  ROOT,
  screenshot,
  SCREENS_DIR,
  seriousA11yViolations,
  signedInContext,
  startApp,
  uniqueEmail,
  type RunningApp,
  type Session,
} from './fixtures/harness.js';

const FIRST_NAMES = ['Primero', 'Ana', 'Bruno', 'Carmen', 'David', 'Eva', 'Fernando', 'Gloria'];

/** 25 contacts: 20 with email, companies Acme and Globex, tags vip (7) and proveedor (6), one Zamora. */
const SEED = Array.from({ length: 25 }, (_, i) => ({
  firstName: FIRST_NAMES[i % FIRST_NAMES.length]!,
  lastName: i === 6 ? 'Zamora' : `Prueba${String(i + 1).padStart(2, '0')}`,
  email: i % 5 === 4 ? null : `contacto${i + 1}@ejemplo.com`,
  phone: `+34 600 000 ${String(i).padStart(3, '0')}`,
  company: i % 3 === 0 ? 'Acme' : i % 3 === 1 ? 'Globex' : null,
  tags: i % 4 === 0 ? ['vip'] : i % 4 === 1 ? ['proveedor'] : [],
}));

const CSV_WITH_A_BAD_LINE = join(ROOT, 'web/test/fixtures/contactos-una-linea-mala.csv');

/** Holds every request to `path` (whatever its query) until released. */
async function holdRequest(page: Page, path: string): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname === path, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

const shown = (page: Page, text: string) => page.locator('.pagination p', { hasText: text }).waitFor();
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).waitFor();
const rows = (page: Page) => page.locator('table tbody tr');
const statValue = (page: Page, label: string) => page.locator('.stat-card', { hasText: label }).locator('.stat-value');
const activeInside = (page: Page, selector: string) =>
  page.evaluate((sel) => Boolean(document.activeElement?.closest(sel)), selector);

browserSuite(t, () => {
  let app: RunningApp;
  let browser: Browser;
  let session: Session;
  let page: Page;

  t.before(async () => {
    app = await startApp();
    browser = await launchBrowser();
    session = await registerUser(app, { firstName: 'Sofía', company: 'Distribuciones Sur' });
    for (const contact of SEED) {
      const created = await api(app, 'POST', 'contacts', contact, session.token);
      if (created.status !== 201) throw new Error(`seed: ${created.status} ${JSON.stringify(created.body)}`);
    }
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
  });

  t.test('stat cards and pagination over 25 contacts', async (t) => {
    await page.goto('/contacts');
    await shown(page, 'Mostrando 1 a 10 de 25');
    await statValue(page, 'Total Contactos').filter({ hasText: '25' }).waitFor();
    t.same(
      await Promise.all(['Total Contactos', 'Empresas', 'Etiquetas', 'Con Correo'].map((l) => statValue(page, l).textContent())),
      ['25', '2', '2', '20'],
      'total, companies, tags, with email',
    );
    t.same(
      await page.locator('table thead th').allInnerTexts().then((h) => h.map((x) => x.trim().toLowerCase())),
      ['', 'nombre', 'correo', 'teléfono', 'empresa', 'etiquetas', 'acciones'],
      'columns',
    );
    t.equal(await rows(page).count(), 10);
    t.match(await rows(page).first().innerText(), /Primero\s+Prueba25/, 'newest first');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await shown(page, 'Mostrando 11 a 20 de 25');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await shown(page, 'Mostrando 21 a 25 de 25');
    t.equal(await rows(page).count(), 5);
    t.ok(await page.getByRole('button', { name: 'Siguiente' }).isDisabled(), 'no page after the last');
    await page.getByRole('button', { name: 'Anterior' }).click();
    await shown(page, 'Mostrando 11 a 20 de 25');
    await page.getByRole('button', { name: 'Anterior' }).click();
    await shown(page, 'Mostrando 1 a 10 de 25');
    t.ok(await page.getByRole('button', { name: 'Anterior' }).isDisabled(), 'no page before the first');
    await screenshot(page, 'contactos');
    t.same(await seriousA11yViolations(page), [], 'contacts: no serious or critical accessibility findings');
  });

  t.test('search is debounced and answered by the server', async (t) => {
    const searches: string[] = [];
    const listen = (request: { url: () => string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/contacts' && url.searchParams.has('search')) searches.push(url.searchParams.get('search')!);
    };
    page.on('request', listen);
    await page.getByLabel('Buscar contactos').pressSequentially('Zamora', { delay: 40 });
    await shown(page, 'Mostrando 1 a 1 de 1');
    t.match(await rows(page).first().innerText(), /Zamora/);
    t.ok(searches.length >= 1 && searches.length < 'Zamora'.length, `one request per pause, not per key (${searches.join(', ')})`);
    t.equal(searches.at(-1), 'Zamora', 'the search runs on the server');
    page.off('request', listen);
    await page.getByLabel('Buscar contactos').fill('');
    await shown(page, 'Mostrando 1 a 10 de 25');
  });

  t.test('tag filter', async (t) => {
    await page.getByLabel('Filtrar por etiqueta').selectOption({ label: 'vip' });
    await shown(page, 'Mostrando 1 a 7 de 7');
    for (const text of await rows(page).allInnerTexts()) t.match(text, /vip/);
    await page.getByLabel('Filtrar por etiqueta').selectOption({ label: 'Todas las etiquetas' });
    await shown(page, 'Mostrando 1 a 10 de 25');
  });

  t.test('tag and order live in the URL (search and page too): a reload keeps the view, the back button returns', async (t) => {
    await page.getByLabel('Filtrar por etiqueta').selectOption({ label: 'vip' });
    await shown(page, 'Mostrando 1 a 7 de 7');
    const sortedAnswer = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/contacts' && url.searchParams.get('sort') === 'name' && url.searchParams.get('order') === 'desc';
    });
    await page.getByLabel('Ordenar contactos').selectOption({ label: 'Nombre (Z-A)' });
    await page.waitForURL((url) => url.searchParams.get('orden') === 'name-desc' && url.searchParams.get('etiqueta') === 'vip');
    // The URL changes before the sorted page arrives: wait until the table shows the server's rows, in its order.
    const { contacts } = (await (await sortedAnswer).json()) as { contacts: { firstName: string; lastName: string }[] };
    for (const [i, contact] of contacts.entries()) {
      await rows(page).nth(i).filter({ hasText: `${contact.firstName} ${contact.lastName}` }).waitFor();
    }
    const sorted = await rows(page).allInnerTexts();
    await page.reload();
    await shown(page, 'Mostrando 1 a 7 de 7');
    t.equal(await page.getByLabel('Ordenar contactos').inputValue(), 'name-desc', 'the order survives a reload');
    t.same(await rows(page).allInnerTexts(), sorted, 'the same rows in the same order');
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('orden'));
    t.equal(await page.getByLabel('Ordenar contactos').inputValue(), 'createdAt-desc');
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('etiqueta'));
    await shown(page, 'Mostrando 1 a 10 de 25');
  });

  t.test('the contact modal traps focus, closes on Escape and adds tags on Enter', async (t) => {
    const opener = page.getByRole('button', { name: 'Nuevo Contacto' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo Contacto' });
    await dialog.waitFor();
    t.equal(await page.evaluate(() => document.activeElement?.id), await dialog.getByLabel('Nombre').getAttribute('id'), 'focus starts on Nombre');
    let inside = true;
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      inside &&= await activeInside(page, '[role="dialog"]');
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      inside &&= await activeInside(page, '[role="dialog"]');
    }
    t.ok(inside, 'Tab and Shift+Tab never leave the dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    t.ok(await opener.evaluate((el) => el === document.activeElement), 'focus returns to the opener');

    await opener.click();
    await dialog.getByRole('button', { name: 'Crear Contacto' }).click();
    await dialog.getByText('El nombre es requerido').waitFor();
    await dialog.getByText('El apellido es requerido').waitFor();
    await dialog.getByLabel('Nombre').fill('Ana');
    await dialog.getByLabel('Apellido').fill('Torres');
    await dialog.getByLabel('Correo electrónico').fill('ana.torres@ejemplo.com');
    await dialog.getByLabel('Teléfono').fill('+34 622 333 444');
    await dialog.getByLabel('Empresa').fill('Acme');
    const tagBox = dialog.getByLabel('Etiquetas', { exact: true });
    for (const typed of ['  cliente  ', 'cliente', 'Cliente', '   ', 'premium']) {
      await tagBox.fill(typed);
      await tagBox.press('Enter');
    }
    t.same(await dialog.locator('.tag-list .tag').allInnerTexts().then((x) => x.map((s) => s.replace('×', '').trim())), ['cliente', 'premium'], 'trimmed, no duplicates, no blanks');
    t.ok(await dialog.isVisible(), 'Enter in the tag box does not submit');
    await dialog.getByRole('button', { name: 'Quitar etiqueta premium' }).click();
    await tagBox.fill('nuevo');
    await tagBox.press('Enter');
    await screenshot(page, 'contacto-modal');
    t.same(await seriousA11yViolations(page), [], 'contact modal: no serious or critical accessibility findings');
    await dialog.getByRole('button', { name: 'Crear Contacto' }).click();
    await toast(page, 'Contacto creado');
    await shown(page, 'de 26');
    t.match(await rows(page).first().innerText(), /Ana Torres[\s\S]*ana\.torres@ejemplo\.com[\s\S]*Acme[\s\S]*cliente[\s\S]*nuevo/);
    await statValue(page, 'Total Contactos').filter({ hasText: '26' }).waitFor();
  });

  t.test('edit a contact', async (t) => {
    await page.getByRole('button', { name: 'Editar Ana Torres' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Contacto' });
    t.equal(await dialog.getByLabel('Nombre').inputValue(), 'Ana', 'prefilled');
    await dialog.getByLabel('Empresa').fill('Globex');
    await dialog.getByRole('button', { name: 'Guardar Cambios' }).click();
    await toast(page, 'Contacto actualizado');
    await rows(page).first().filter({ hasText: 'Globex' }).waitFor();
    t.pass();
  });

  t.test('delete a contact after confirming', async (t) => {
    await page.getByRole('button', { name: 'Eliminar Ana Torres' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('¿Estás seguro de que quieres eliminar este contacto?').waitFor();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, 'Contacto eliminado');
    await shown(page, 'Mostrando 1 a 10 de 25');
    t.equal(await page.getByText('Ana Torres').count(), 0, 'gone from the table');
  });

  t.test('select all and bulk delete', async (t) => {
    const selectAll = page.getByLabel('Seleccionar todos');
    await selectAll.check();
    t.equal(await page.locator('tbody input[type=checkbox]:checked').count(), 10, 'every row selected');
    await page.getByText('10 seleccionados').waitFor();
    await selectAll.uncheck();
    t.equal(await page.locator('tbody input[type=checkbox]:checked').count(), 0, 'none selected');

    const boxes = page.locator('tbody input[type=checkbox]');
    const firstTwo = [(await boxes.nth(0).getAttribute('aria-label'))!, (await boxes.nth(1).getAttribute('aria-label'))!];
    for (const label of firstTwo) await page.getByLabel(label, { exact: true }).check();
    await page.getByText('2 seleccionados').waitFor();
    await page.getByRole('button', { name: 'Eliminar seleccionados' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('¿Estás seguro de que quieres eliminar estos 2 contactos?').waitFor();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, '2 contactos eliminados');
    await shown(page, 'de 23');
    for (const label of firstTwo) t.equal(await page.getByLabel(label, { exact: true }).count(), 0, `${label}: deleted`);

    // Deshacer brings both back exactly (same rows, so the same labels), then they go again.
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await toast(page, '2 contactos restaurados');
    await shown(page, 'de 25');
    for (const label of firstTwo) await page.getByLabel(label, { exact: true }).waitFor();
    for (const label of firstTwo) await page.getByLabel(label, { exact: true }).check();
    await page.getByRole('button', { name: 'Eliminar seleccionados' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await shown(page, 'de 23');
  });

  t.test('import a CSV with one bad line: progress and report', async (t) => {
    await page.getByRole('button', { name: 'Importar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar contactos' });
    await dialog.getByLabel('Archivo CSV').setInputFiles(CSV_WITH_A_BAD_LINE);
    // The preview's mapping goes with the import (as ?map=…): wait for it so the import is the mapped one.
    await dialog.getByRole('region', { name: 'Asignación de columnas' }).waitFor();
    const release = await holdRequest(page, '/api/contacts/import');
    await dialog.getByRole('button', { name: 'Importar' }).click();
    await dialog.locator('progress').waitFor();
    t.pass('a progress bar shows while the file goes up');
    release();
    const report = dialog.getByRole('region', { name: 'Resultado de la importación' });
    await report.waitFor();
    const count = (label: string) => report.locator('div', { has: page.locator('dt', { hasText: label }) }).locator('dd').textContent();
    t.same([await count('Creados'), await count('Actualizados'), await count('Omitidos')], ['3', '1', '0'], 'created, updated, skipped');
    t.same(await report.locator('.import-errors li').allInnerTexts(), ['Línea 3: Falta el nombre'], 'the bad line and why');
    await screenshot(page, 'importacion');
    await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await shown(page, 'de 26');
    await page.getByRole('cell', { name: 'carlos.ruiz@ejemplo.com' }).waitFor();
  });

  t.test('export downloads the CSV', async (t) => {
    await page.getByRole('button', { name: 'Exportar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Exportar contactos' });
    await dialog.getByLabel(/CSV estándar/).check();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Descargar' }).click()]);
    t.match(download.suggestedFilename(), /^contactos.*\.csv$/);
    const path = await download.path();
    const csv = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    t.equal(lines[0], 'firstName,lastName,email,phone,company,tags', 'header');
    t.equal(lines.length, 27, 'header and 26 contacts');
    t.ok(lines.some((l) => l.startsWith('Carlos,Ruiz,carlos.ruiz@ejemplo.com')), 'imported contact present');
    await toast(page, 'Contactos exportados');
  });

  t.test('dashboard: real totals, recent activity, quick action opens the contact modal', async (t) => {
    // Analytics follows the contacts service through events: wait until the import has reached it.
    for (let tries = 0; tries < 50; tries++) {
      const recent = await api<{ items: { type: string }[] }>(app, 'GET', 'analytics/recent?limit=1', undefined, session.token);
      if (recent.body.items[0]?.type === 'contacts.contact.imported') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.goto('/');
    await statValue(page, 'Contactos').filter({ hasText: '26' }).waitFor();
    const activity = page.locator('.activity-list li');
    await activity.first().waitFor();
    t.match(await activity.first().innerText(), /Contactos importados: 3 nuevos, 1 actualizados/, 'the import is the latest activity');
    await page.getByRole('link', { name: 'Nuevo Contacto' }).click();
    await page.getByRole('dialog', { name: 'Nuevo Contacto' }).waitFor();
    t.equal(new URL(page.url()).pathname, '/contacts');
    await page.keyboard.press('Escape');
    for (const [label, path] of [
      ['Nuevo Mensaje', '/whatsapp'],
      ['Agendar Cita', '/calendar'],
      ['Enviar Correo', '/emails'],
    ] as const) {
      await page.goto('/');
      // Clicked once the figures and the activity are drawn: drawn later, they move the quick actions, and a
      // click aimed before the move lands beside the link.
      await statValue(page, 'Contactos').filter({ hasText: '26' }).waitFor();
      await page.locator('.activity-list li').first().waitFor();
      await page.getByRole('link', { name: label }).click();
      await page.waitForURL((url) => url.pathname === path);
      t.pass(`${label} opens ${path}`);
    }
  });

  t.test('the contact page: fields and timeline, reached from the name in the list', async (t) => {
    await page.goto('/contacts');
    await shown(page, 'de 26');
    const name = (await rows(page).first().locator('a.contact-name').innerText()).trim().split('\n').pop()!.trim();
    const members = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/workspace/members');
    await rows(page).first().locator('a.contact-name').click();
    await page.waitForURL((url) => /^\/contacts\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByRole('heading', { name: 'Datos' }).waitFor();
    await members;
    t.equal(await page.getByText('Creado por').count(), 0, 'a workspace of one names no one');
    const activity = page.locator('section', { has: page.getByRole('heading', { name: 'Actividad' }) });
    await activity.locator('.timeline, p.muted:not([role])').first().waitFor();
    t.notOk(await activity.getByText('Cargando actividad...').isVisible(), 'the timeline answered');
    await page.getByRole('link', { name: 'Volver a contactos' }).click();
    await shown(page, 'de 26');
  });

  t.test('"Programar reunión" on a contact\'s page says where to connect a calendar when none is', async (t) => {
    const contact = await api<{ id: string }>(app, 'POST', 'contacts', { firstName: 'Rosa', lastName: 'Vidal', email: 'rosa.vidal@acme.com' }, session.token);
    await page.goto(`/contacts/${contact.body.id}`);
    await page.getByRole('heading', { name: 'Rosa Vidal', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Programar reunión' }).click();
    const dialog = page.getByRole('dialog', { name: 'Programar reunión' });
    await dialog.getByText('Para programar una reunión con Rosa Vidal, conecta Google Calendar (Google Meet) o Microsoft Teams.').waitFor();
    await dialog.getByRole('link', { name: 'Conectar Microsoft Teams' }).waitFor();
    await dialog.getByRole('link', { name: 'Conectar Google Calendar' }).click();
    await page.waitForURL((url) => url.pathname === '/google-calendar');
    await page.getByRole('button', { name: 'Conectar Google Calendar' }).waitFor();
    t.equal((await api(app, 'DELETE', `contacts/${contact.body.id}`, undefined, session.token)).status, 204);
    await page.goto('/contacts');
    await shown(page, 'de 26');
  });

  t.test('shift-click range, select all N matching, bulk tag, delete and Deshacer', async (t) => {
    const boxes = page.locator('tbody input[type=checkbox]');
    await boxes.nth(0).click();
    await boxes.nth(3).click({ modifiers: ['Shift'] });
    await page.getByText('4 seleccionados').waitFor();
    t.equal(await page.locator('tbody input[type=checkbox]:checked').count(), 4, 'the range between the two clicks');
    await page.getByLabel('Seleccionar todos').check();
    await page.getByRole('button', { name: 'Seleccionar los 26 que coinciden' }).click();
    await page.getByText('26 seleccionados (todos los que coinciden)').waitFor();
    await page.getByRole('button', { name: 'Etiquetar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Etiquetar 26 contactos' });
    await dialog.getByLabel('Etiqueta').fill('masivo');
    await dialog.getByRole('button', { name: 'Añadir etiqueta' }).click();
    await toast(page, '26 contactos actualizados');
    await rows(page).first().filter({ hasText: 'masivo' }).waitFor();

    const before = await rows(page).allInnerTexts();
    await page.getByLabel('Seleccionar todos').check();
    await page.getByRole('button', { name: 'Seleccionar los 26 que coinciden' }).click();
    await page.getByRole('button', { name: 'Eliminar seleccionados' }).click();
    await page.getByRole('dialog').getByText('¿Estás seguro de que quieres eliminar estos 26 contactos?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await toast(page, '26 contactos eliminados');
    await page.getByText('Aún no tienes contactos').waitFor();
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await toast(page, '26 contactos restaurados');
    await shown(page, 'Mostrando 1 a 10 de 26');
    t.same(await rows(page).allInnerTexts(), before, 'the same rows come back');
  });

  t.test('a saved view is created and re-opened from the sidebar', async (t) => {
    await page.getByLabel('Filtrar por etiqueta').selectOption({ label: 'vip' });
    await page.waitForURL((url) => url.searchParams.get('etiqueta') === 'vip');
    await page.getByRole('button', { name: 'Guardar vista' }).click();
    const dialog = page.getByRole('dialog', { name: 'Guardar vista' });
    await dialog.getByLabel('Nombre de la vista').fill('Clientes VIP');
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await toast(page, 'Vista guardada');
    await page.goto('/contacts');
    await shown(page, 'de 26');
    await page.getByRole('link', { name: 'Clientes VIP' }).click();
    await page.waitForURL((url) => url.searchParams.get('etiqueta') === 'vip');
    t.equal(await page.getByLabel('Filtrar por etiqueta').inputValue(), 'vip', 'the view filters again');
    // The URL changes at once; the table shows the filtered page when the server's answer arrives.
    await page.waitForFunction(() => {
      const shownRows = Array.from(document.querySelectorAll<HTMLElement>('table tbody tr'));
      return shownRows.length > 0 && shownRows.every((row) => row.innerText.includes('vip'));
    });
    for (const text of await rows(page).allInnerTexts()) t.match(text, /vip/);
  });

  t.test('import with a mapping step: a Google Contacts CSV previewed, a column remapped, failing rows shown before importing', async (t) => {
    const google = [
      'Name,Given Name,Family Name,E-mail 1 - Value,Phone 1 - Value,Organization 1 - Name,Labels,Notes',
      'Marta Gil,Marta,Gil,marta.gil@ejemplo.com,+34 611 000 111,Acme,* myContacts ::: Clientes,nota',
      'Sin Apellido,Pablo,,pablo@ejemplo.com,,,,',
    ].join('\n');
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Importar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar contactos' });
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'google.csv', mimeType: 'text/csv', buffer: Buffer.from(google) });
    const mapping = dialog.getByRole('region', { name: 'Asignación de columnas' });
    await mapping.waitFor();
    t.equal(await mapping.getByLabel('Campo para Given Name').inputValue(), 'firstName');
    t.equal(await mapping.getByLabel('Campo para Family Name').inputValue(), 'lastName');
    t.equal(await mapping.getByLabel('Campo para E-mail 1 - Value').inputValue(), 'email');
    t.equal(await mapping.getByLabel('Campo para Organization 1 - Name').inputValue(), 'company');
    await mapping.getByText('Columnas que no se importarán: Name, Notes').waitFor();
    t.same(await mapping.getByRole('list', { name: 'Primeros valores de E-mail 1 - Value' }).getByRole('listitem').allInnerTexts(), ['marta.gil@ejemplo.com', 'pablo@ejemplo.com'], "each column's first values are shown");
    await mapping.getByLabel('Campo para Labels').selectOption({ label: 'No importar' });
    await mapping.getByText('Columnas que no se importarán: Name, Labels, Notes').waitFor();
    await dialog.getByRole('button', { name: 'Comprobar filas' }).click();
    await dialog.getByRole('status', { name: 'Filas que fallarán' }).getByText('Línea 3: Falta el apellido').waitFor();
    await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
    const report = dialog.getByRole('region', { name: 'Resultado de la importación' });
    await report.waitFor();
    t.same(await report.locator('.import-errors li').allInnerTexts(), ['Línea 3: Falta el apellido'], 'every bad line');
    await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await page.getByRole('cell', { name: 'marta.gil@ejemplo.com' }).waitFor();
    const marta = await api<{ contacts: { tags: string[]; company: string | null }[] }>(app, 'GET', 'contacts?search=marta.gil', undefined, session.token);
    t.same(marta.body.contacts.map((c) => [c.company, c.tags]), [['Acme', []]], 'Labels left out as chosen');
  });

  t.test('at 360 px wide: the list with its saved views, the contact page and the mapping step, without horizontal scroll', async (t) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const noSideScroll = async (what: string) =>
      t.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, `${what}: no horizontal scroll`);
    await page.goto('/contacts');
    await shown(page, 'de 27');
    await page.getByRole('link', { name: 'Clientes VIP' }).waitFor();
    await noSideScroll('the list and its saved views');
    await screenshot(page, 'contacts-list-360');
    await rows(page).first().locator('a.contact-name').click();
    await page.getByRole('heading', { name: 'Datos' }).waitFor();
    await noSideScroll('the contact page');
    await screenshot(page, 'contact-page-360');
    await page.getByRole('link', { name: 'Volver a contactos' }).click();
    await page.getByRole('button', { name: 'Importar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar contactos' });
    const outlook = 'First Name,Last Name,E-mail Address,Mobile Phone,Company,Job Title\nLuis,Mora,luis@ejemplo.com,+34 622 000 111,Globex,Gerente\n';
    await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'outlook.csv', mimeType: 'text/csv', buffer: Buffer.from(outlook) });
    await dialog.getByRole('region', { name: 'Asignación de columnas' }).getByText('Columnas que no se importarán: Job Title').waitFor();
    await noSideScroll('the mapping step');
    await screenshot(page, 'contacts-import-mapping-360');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
  t.test('duplicates on the contact page: the same phone typed two ways, merged after confirming, nothing lost', async (t) => {
    type Created = { id: string };
    const kept = await api<Created>(app, 'POST', 'contacts', { firstName: 'Marta', lastName: 'Duplicada', email: 'marta.dup@ejemplo.com', phone: '+34 611 22 33 44', tags: ['vip'] }, session.token);
    const other = await api<Created>(app, 'POST', 'contacts', { firstName: 'Marta', lastName: 'D.', phone: '611223344', company: 'Globex', tags: ['proveedor'] }, session.token);
    t.same([kept.status, other.status], [201, 201]);
    await page.goto(`/contacts/${kept.body.id}`);
    const duplicates = page.getByRole('region', { name: 'Posibles duplicados' });
    await duplicates.getByText('Marta D.', { exact: true }).waitFor();
    await duplicates.getByRole('button', { name: 'Fusionar con Marta D.' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Marta D. se fusionará en Marta Duplicada: se conservan sus etiquetas, datos y actividad.').waitFor();
    await dialog.getByRole('button', { name: 'Fusionar' }).click();
    await toast(page, 'Contactos fusionados');
    await duplicates.waitFor({ state: 'detached' });
    const data = page.locator('section', { has: page.getByRole('heading', { name: 'Datos' }) });
    await data.getByText('proveedor').waitFor();
    await data.getByText('vip').waitFor();
    await data.getByText('Globex').waitFor();
    t.equal((await api(app, 'GET', `contacts/${other.body.id}`, undefined, session.token)).status, 404, 'the other contact is gone');
    const survivor = await api<{ tags: string[]; company: string | null }>(app, 'GET', `contacts/${kept.body.id}`, undefined, session.token);
    t.same([survivor.body.company, [...survivor.body.tags].sort()], ['Globex', ['proveedor', 'vip']], 'tags unioned, the blank company filled');
  });

  t.test('once the team grows, the contact page names who created it and who changed it last; someone who left is «Antiguo miembro»', async (t) => {
    const join = async (firstName: string, lastName: string) => {
      const invited = await api<{ link: string }>(app, 'POST', 'workspace/invitations', { email: uniqueEmail(firstName.toLowerCase()), role: 'agent' }, session.token);
      const token = new URL(invited.body.link).searchParams.get('token');
      const joined = await api<Session>(app, 'POST', 'auth/invitations/accept', { token, firstName, lastName, password: 'Girasol-Azul-2026' });
      t.equal(joined.status, 200, `${firstName} joined`);
      return joined.body;
    };
    const [luis, marta] = [await join('Luis', 'Pérez'), await join('Marta', 'Gil')];
    const olga = { firstName: 'Olga', lastName: 'Autoría', email: 'olga.autoria@ejemplo.com' };
    const contact = await api<{ id: string }>(app, 'POST', 'contacts', olga, session.token);
    t.equal((await api(app, 'PUT', `contacts/${contact.body.id}`, { ...olga, company: 'Acme' }, luis.token)).status, 200);
    await page.goto(`/contacts/${contact.body.id}`);
    const attribution = page.locator('.contact-attribution');
    await attribution.getByText(`Creado por ${session.user.firstName} ${session.user.lastName}`).waitFor();
    await attribution.getByText('Modificado por Luis Pérez').waitFor();
    await screenshot(page, 'contact-page-attribution');

    t.equal((await api(app, 'PUT', `contacts/${contact.body.id}`, { ...olga, company: 'Globex' }, marta.token)).status, 200);
    t.equal((await api(app, 'DELETE', `workspace/members/${marta.user.id}`, undefined, session.token)).status, 204);
    await page.reload();
    await attribution.getByText('Modificado por Antiguo miembro').waitFor();
    t.equal((await api(app, 'DELETE', `contacts/${contact.body.id}`, undefined, session.token)).status, 204);
  });
});
