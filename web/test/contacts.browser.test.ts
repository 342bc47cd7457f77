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

async function holdRequest(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
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
    const release = await holdRequest(page, '**/api/contacts/import');
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
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar' }).click()]);
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
      await page.getByRole('link', { name: label }).click();
      await page.waitForURL((url) => url.pathname === path);
      t.pass(`${label} opens ${path}`);
    }
  });
});
