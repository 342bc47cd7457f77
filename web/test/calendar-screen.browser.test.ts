import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { at, connectGoogleThroughApi, dayOfThisMonth } from './fixtures/calendar.js';
import {
  browserSuite,
  launchBrowser,
  registerUser,
  screenshot,
  seriousA11yViolations,
  signedInContext,
  startApp,
  type RunningApp,
} from './fixtures/harness.js';

const EMAIL = 'pablo.google@ejemplo.com';

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

browserSuite(t, () => {
  let peer: GooglePeer;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  t.before(async () => {
    peer = await new GooglePeer().start();
    peer.addAccount(EMAIL, [{ id: 'equipo@group.calendar.google.com', summary: 'Equipo comercial', backgroundColor: '#16a765', accessRole: 'owner' }]);
    app = await startApp(peer.config());
    browser = await launchBrowser();
    const session = await registerUser(app);
    await connectGoogleThroughApi(app, session.token);
    context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
  });

  t.test('Calendario: month grid with +N más, list view, search, type filter, pickers, force refresh', async (t) => {
    const busy = dayOfThisMonth(14);
    for (const [i, title] of ['Uno', 'Dos', 'Tres', 'Cuatro', 'Cinco'].entries()) {
      peer.putEvent(EMAIL, EMAIL, { id: `dia-${i}`, summary: `Cita ${title}`, start: { dateTime: at(busy, 9 + i) }, end: { dateTime: at(busy, 10 + i) } });
    }
    const holiday = dayOfThisMonth(20);
    peer.putEvent(EMAIL, EMAIL, { id: 'feria', summary: 'Feria del sector', start: { date: holiday }, end: { date: dayOfThisMonth(22) } });

    await page.goto('/calendar');
    await page.getByRole('heading', { name: 'Calendario', level: 1 }).waitFor();
    // Force refresh: Google is asked for its changes now, whatever the mirror's age.
    const googleCard = page.getByRole('region', { name: 'Google Calendar' });
    await googleCard.getByRole('button', { name: 'Forzar actualización' }).click();
    const cell = page.locator(`[data-day="${busy}"]`);
    await cell.getByRole('button', { name: '+2 más' }).waitFor();
    t.equal(await cell.locator('.cal-chip').count(), 3, 'three events in the cell');
    await cell.getByRole('button', { name: '+2 más' }).click();
    const day = page.getByRole('dialog');
    await day.getByText('Cita Cinco').waitFor();
    await day.getByRole('button', { name: 'Cerrar ventana' }).click();
    await page.locator(`[data-day="${dayOfThisMonth(21)}"]`).getByText('Feria del sector').waitFor();
    t.equal(await page.locator(`[data-day="${dayOfThisMonth(22)}"]`).getByText('Feria del sector').count(), 0, 'all-day end shown one day earlier');

    await page.getByRole('button', { name: 'Lista', exact: true }).click();
    await page.locator('.cal-list-item', { hasText: 'Feria del sector' }).getByText(/todo el día/).waitFor();
    await page.getByRole('searchbox', { name: 'Buscar eventos' }).fill('feria');
    t.equal(await page.locator('.cal-list-item').count(), 1, 'search narrows the list');
    await page.getByLabel('Tipo de evento').selectOption('meeting');
    await page.getByText('No hay eventos').waitFor();
    await page.getByLabel('Tipo de evento').selectOption('all');
    await page.getByRole('searchbox', { name: 'Buscar eventos' }).fill('');

    await page.getByRole('button', { name: 'Mes siguiente' }).click();
    await page.getByText('No hay eventos').waitFor();
    await page.getByRole('button', { name: 'Hoy' }).click();
    await page.locator('.cal-list-item', { hasText: 'Cita Uno' }).waitFor();
    await page.getByRole('button', { name: 'Mes', exact: true }).click();

    await googleCard.getByRole('button', { name: 'Listar calendarios' }).click();
    const picker = page.getByRole('dialog', { name: 'Elegir calendario de Google' });
    const use = picker.getByRole('button', { name: 'Usar este calendario' });
    await picker.getByText('Equipo comercial').waitFor();
    t.ok(await use.isDisabled(), 'disabled until a calendar is chosen');
    await picker.getByText('Equipo comercial').click();
    t.ok(await use.isEnabled());
    await use.click();
    await googleCard.getByText('Calendario: Equipo comercial').waitFor();
    t.equal(await page.getByRole('button', { name: 'Google', exact: true }).getAttribute('aria-pressed'), 'true', 'source switched to google');
    await page.locator(`[data-day="${busy}"] .cal-chip`).first().waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Teams', exact: true }).click();
    await page.getByRole('link', { name: 'Ir a Teams' }).waitFor();
    t.equal(await page.getByRole('link', { name: 'Ir a Teams' }).getAttribute('href'), '/teams');
    await page.getByRole('button', { name: 'Local', exact: true }).click();
    await page.locator(`[data-day="${busy}"]`).getByRole('button', { name: '+2 más' }).waitFor();
  });

  t.test('Calendario: create, edit and delete an event from the grid', async (t) => {
    const day = dayOfThisMonth(9);
    await page.locator(`[data-day="${day}"]`).getByRole('button', { name: /^Nuevo evento el/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo Evento' });
    await dialog.getByLabel('Título').fill('Llamada con proveedor');
    await dialog.getByRole('button', { name: 'Crear Evento' }).click();
    const chip = page.locator(`[data-day="${day}"]`).getByRole('button', { name: /Llamada con proveedor/ });
    await chip.waitFor();
    const created = peer.liveEvents(EMAIL, EMAIL).find((e) => e.summary === 'Llamada con proveedor');
    t.ok(created, 'created in Google');
    t.equal((created!.start as { dateTime: string }).dateTime, at(day, 9), 'at 09:00 of the day clicked');

    await chip.click();
    const edit = page.getByRole('dialog', { name: 'Editar Evento' });
    await edit.getByLabel('Título').fill('Llamada con proveedor (movida)');
    await edit.getByRole('button', { name: 'Guardar Cambios' }).click();
    const moved = page.locator(`[data-day="${day}"]`).getByRole('button', { name: /\(movida\)/ });
    await moved.waitFor();
    t.equal(peer.event(EMAIL, EMAIL, created!.id)!.summary, 'Llamada con proveedor (movida)');

    await moved.click();
    await page.getByRole('dialog', { name: 'Editar Evento' }).getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog', { name: 'Editar Evento' }).getByRole('button', { name: 'Confirmar eliminación' }).click();
    await moved.waitFor({ state: 'detached' });
    t.notOk(peer.event(EMAIL, EMAIL, created!.id), 'deleted in Google');
  });

  t.test('Calendario: an all-day event created, edited and deleted from the grid', async (t) => {
    const first = dayOfThisMonth(11);
    const second = dayOfThisMonth(12);
    const third = dayOfThisMonth(13);
    await page.locator(`[data-day="${first}"]`).getByRole('button', { name: /^Nuevo evento el/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo Evento' });
    await dialog.getByLabel('Título').fill('Inventario anual');
    await dialog.getByLabel('Todo el día').check();
    t.equal(await dialog.getByLabel('Inicio', { exact: true }).inputValue(), first, 'starts on the day clicked');
    await dialog.getByLabel('Fin', { exact: true }).fill(second);
    await dialog.getByRole('button', { name: 'Crear Evento' }).click();
    const chip = page.locator(`[data-day="${second}"]`).getByRole('button', { name: /Inventario anual/ });
    await chip.waitFor();
    t.equal(await page.locator(`[data-day="${third}"]`).getByRole('button', { name: /Inventario anual/ }).count(), 0, 'the last day shown is the one chosen');
    const created = peer.liveEvents(EMAIL, EMAIL).find((e) => e.summary === 'Inventario anual');
    t.match(created, { start: { date: first }, end: { date: third } }, "Google's exclusive end: the day after the last");

    await chip.click();
    const edit = page.getByRole('dialog', { name: 'Editar Evento' });
    t.ok(await edit.getByLabel('Todo el día').isChecked());
    await edit.getByLabel('Fin', { exact: true }).fill(first);
    await edit.getByRole('button', { name: 'Guardar Cambios' }).click();
    await chip.waitFor({ state: 'detached' });
    t.match(peer.event(EMAIL, EMAIL, created!.id as string), { end: { date: second } }, 'one day now');

    await page.locator(`[data-day="${first}"]`).getByRole('button', { name: /Inventario anual/ }).click();
    await page.getByRole('dialog', { name: 'Editar Evento' }).getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog', { name: 'Editar Evento' }).getByRole('button', { name: 'Confirmar eliminación' }).click();
    await page.locator(`[data-day="${first}"]`).getByRole('button', { name: /Inventario anual/ }).waitFor({ state: 'detached' });
    t.notOk(peer.event(EMAIL, EMAIL, created!.id as string), 'deleted in Google');
  });

  t.test('Calendario at 360 px wide', async (t) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/calendar');
    await page.locator(`[data-day="${dayOfThisMonth(14)}"]`).getByRole('button', { name: '+2 más' }).waitFor();
    t.ok(await noHorizontalScroll(page), 'Calendario fits');
    t.same(await seriousA11yViolations(page), [], 'no serious accessibility findings on Calendario');
    await screenshot(page, 'calendario-360');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});
