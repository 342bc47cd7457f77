import t from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import {
  browserSuite,
  launchBrowser,
  registerUser,
  screenshot,
  seriousA11yViolations,
  signedInContext,
  startApp,
  type RunningApp,
  type Session,
} from './fixtures/harness.js';

const EMAIL = 'laura.google@ejemplo.com';
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });

/** A YYYY-MM-DD of this month (the browser and this process share the machine's zone). */
function dayOfThisMonth(day: number): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
const at = (day: string, hour: number) => new Date(`${day}T${String(hour).padStart(2, '0')}:00`).toISOString();

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

browserSuite(t, () => {
  let peer: GooglePeer;
  let app: RunningApp;
  let context: BrowserContext;
  let page: Page;
  let session: Session;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  t.before(async () => {
    peer = await new GooglePeer().start();
    peer.addAccount(EMAIL, [{ id: 'equipo@group.calendar.google.com', summary: 'Equipo comercial', backgroundColor: '#16a765', accessRole: 'owner' }]);
    app = await startApp(peer.config());
    browser = await launchBrowser();
    session = await registerUser(app);
    context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
  });

  t.test('Google Calendar: the marketing view, then the whole connect redirect in a new tab', async (t) => {
    await page.goto('/google-calendar');
    const connect = page.getByRole('button', { name: 'Conectar Google Calendar' });
    await connect.waitFor();
    for (const card of ['Calendarios', 'Google Meet', 'Sincronización']) await page.getByRole('heading', { name: card, exact: true }).waitFor();

    const [tab] = await Promise.all([context.waitForEvent('page'), connect.click()]);
    // Google's consent (the peer's), then our public callback, then back to the screen.
    await tab.waitForURL(/\/google-calendar$/);
    await toast(tab, '¡Google Calendar conectado!').waitFor();
    t.ok(peer.requests.some((r) => r.path === '/o/oauth2/v2/auth'), 'the tab went through Google');
    await tab.close();

    // The first tab notices by itself.
    await page.getByRole('heading', { name: 'Google Calendar & Meet', level: 1 }).waitFor();
    await page.getByText(`Conectado como ${EMAIL}`).waitFor();
    for (const name of ['Nuevo Evento', 'Nueva Reunión Meet', 'Desconectar']) await page.getByRole('button', { name, exact: true }).waitFor();
    const primary = page.getByRole('button', { name: new RegExp(EMAIL) });
    await primary.getByText('Principal').waitFor();
    t.equal(await primary.getAttribute('aria-pressed'), 'true', 'the primary calendar is selected');
    await page.getByText('No hay eventos próximos').waitFor();
    await screenshot(page, 'google-calendar-conectado');
  });

  t.test('creating a Google Meet meeting and an event from the Google Calendar screen', async (t) => {
    await page.getByRole('button', { name: 'Nueva Reunión Meet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva Reunión Google Meet' });
    await dialog.getByRole('button', { name: 'Crear Reunión' }).click();
    await dialog.getByText('El título es requerido').waitFor();
    await dialog.getByLabel('Título').fill('Demo con Acme');
    await dialog.getByLabel('Asistentes').fill('compras@acme.com,  director@acme.com');
    await dialog.getByRole('button', { name: 'Crear Reunión' }).click();
    await dialog.waitFor({ state: 'detached' });

    const meet = page.getByRole('region', { name: 'Google Meet' });
    await meet.getByText('Demo con Acme').waitFor();
    await meet.getByText('2 asistentes').waitFor();
    t.match(await meet.getByRole('link', { name: 'Unirse', exact: true }).getAttribute('href'), /^https:\/\/meet\.google\.com\//);
    const insert = peer.apiRequests('/events', 'POST').at(-1)!;
    t.equal(insert.query.conferenceDataVersion, '1', 'asked Google for a Meet conference');
    t.equal(insert.query.sendUpdates, 'all', 'invitations emailed');
    t.match(insert.body, { attendees: [{ email: 'compras@acme.com' }, { email: 'director@acme.com' }] });

    const upcoming = page.getByRole('region', { name: 'Próximos eventos' });
    await upcoming.getByRole('link', { name: 'Unirse a Meet' }).waitFor();

    await page.getByRole('button', { name: 'Nuevo Evento' }).click();
    const eventDialog = page.getByRole('dialog', { name: 'Nuevo Evento' });
    await eventDialog.getByLabel('Título').fill('Visita al almacén');
    await eventDialog.getByLabel('Ubicación').fill('Polígono Sur');
    await eventDialog.getByRole('button', { name: 'Crear Evento' }).click();
    await upcoming.getByText('Visita al almacén').waitFor();
    await upcoming.getByText('Polígono Sur').waitFor();
    t.equal(peer.liveEvents(EMAIL, EMAIL).filter((e) => e.summary === 'Visita al almacén').length, 1, 'in Google');
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
    // The mirror was read less than a minute ago: the new Google events arrive with a forced refresh.
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

  t.test('both screens at 360 px wide', async (t) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/calendar');
    await page.locator(`[data-day="${dayOfThisMonth(14)}"]`).getByRole('button', { name: '+2 más' }).waitFor();
    t.ok(await noHorizontalScroll(page), 'Calendario fits');
    t.same(await seriousA11yViolations(page), [], 'no serious accessibility findings on Calendario');
    await screenshot(page, 'calendario-360');
    await page.goto('/google-calendar');
    await page.getByRole('heading', { name: 'Google Calendar & Meet' }).waitFor();
    t.ok(await noHorizontalScroll(page), 'Google Calendar fits');
    t.same(await seriousA11yViolations(page), [], 'no serious accessibility findings on Google Calendar');
    await screenshot(page, 'google-calendar-360');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  t.test('a grant revoked in Google shows as disconnected with "Vuelve a conectar Google"', async (t) => {
    peer.revokeGrant(EMAIL);
    peer.expireAccessTokens();
    await page.goto('/calendar');
    await page.getByRole('region', { name: 'Google Calendar' }).getByRole('button', { name: 'Forzar actualización' }).click();
    await page.getByText('Vuelve a conectar Google', { exact: false }).first().waitFor();
    await page.goto('/google-calendar');
    await page.getByText(/Vuelve a conectar Google/).waitFor();
    await page.getByRole('button', { name: 'Conectar Google Calendar' }).waitFor();
    t.pass('the screen asks to connect again');
  });
});
