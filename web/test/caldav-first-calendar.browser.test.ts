// Proves a new owner with CalDAV alone (no Google) is not stuck: an empty server says so and gets a calendar from the screen, the dashboard counts CalDAV as a calendar, and a calendar made on the server appears after Actualizar.
import t from 'tap';
import type { Page } from 'playwright-core';
import { startRadicale, type Radicale } from '../../services/calendar/test/fixtures/radicale.js';
import { appAndBrowser, browserSuite, registerUser, screenshot, signedInContext } from './fixtures/harness.js';

const lucia = { user: 'lucia', password: 'clave-de-aplicacion' };

browserSuite(t, () => {
  // Radicale listens on loopback: allowed as an operator allows a server of their own network.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let radicale: Radicale;
  let page: Page;
  const card = () => page.getByRole('region', { name: 'CalDAV (iCloud, Fastmail, Nextcloud)' });
  const listed = () => card().getByRole('list', { name: 'Calendarios CalDAV' });

  t.before(async () => {
    radicale = await startRadicale([lucia]);
    const session = await registerUser(stage.app);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await radicale?.stop();
  });

  t.test('an empty CalDAV server says it has no calendar, and Crear calendario makes one there', async (t) => {
    await page.goto('/calendar');
    const hint = page.locator('.cal-hint');
    await hint.getByText(/Conecta un calendario para ver y crear tus eventos aquí: Google Calendar, Outlook \(con Microsoft Teams\) o CalDAV/).waitFor();
    t.equal(await hint.getByRole('link', { name: 'Conectar Microsoft Teams' }).getAttribute('href'), '/teams', 'every provider offered, not Google alone');

    await card().getByLabel('Dirección del servidor').fill(radicale.url);
    await card().getByLabel('Usuario').fill('lucia');
    await card().getByLabel('Contraseña de aplicación').fill(lucia.password);
    await card().getByRole('button', { name: 'Conectar' }).click();
    await card().getByText(`Conectado como lucia en 127.0.0.1:${radicale.port}`).waitFor();
    await card().getByText('Tu servidor CalDAV no tiene ningún calendario todavía.', { exact: false }).waitFor();
    await hint.waitFor({ state: 'detached' });
    t.equal(await page.getByRole('button', { name: 'Nuevo evento', exact: true }).count(), 0, 'no calendar, no Nuevo evento');
    await screenshot(page, 'caldav-sin-calendarios');

    await card().getByRole('button', { name: 'Crear calendario' }).click();
    await card().getByText('Indica el nombre del calendario').waitFor();
    await card().getByLabel('Nombre del calendario').fill('Citas de la peluquería');
    await card().getByRole('button', { name: 'Crear calendario' }).click();
    await listed().getByText('Citas de la peluquería').waitFor();
    await page.getByRole('button', { name: 'Nuevo evento', exact: true }).waitFor();
    t.equal(await card().getByText('no tiene ningún calendario').count(), 0, 'the empty-server words are gone');
    const home = await radicale.request(lucia, 'PROPFIND', '/lucia/', undefined, { depth: '1' });
    t.match(await home.text(), /Citas de la peluquería/, 'the calendar is on Radicale');
    await screenshot(page, 'caldav-calendario-creado');
  });

  t.test('the dashboard counts CalDAV as the calendar: its step is done and Agendar Cita leads to Calendario', async (t) => {
    await page.goto('/');
    const checklist = page.getByRole('region', { name: 'Primeros pasos' });
    await checklist.getByText('Calendario conectado').waitFor();
    t.equal(await checklist.getByRole('link', { name: 'Conecta un calendario' }).count(), 0, 'no calendar step left to take');
    const schedule = page.getByRole('region', { name: 'Acciones Rápidas' }).getByRole('link', { name: /Agendar Cita/ });
    t.notMatch(await schedule.textContent(), /primero/, 'no "connect first" on the action');
    t.notMatch(await page.locator('main').textContent(), /Conecta Google Calendar/, 'Google is not asked for');
    await screenshot(page, 'caldav-dashboard');
    await schedule.click();
    await page.waitForURL((url) => url.pathname === '/calendar');
    await listed().getByText('Citas de la peluquería').waitFor();
    t.pass('Calendario, with the CalDAV calendar');
  });

  t.test('a calendar made on the server appears after Actualizar', async (t) => {
    await radicale.makeCalendar(lucia, 'vacaciones', 'Vacaciones', '#16A765FF');
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await listed().getByText('Vacaciones').waitFor();
    t.equal(await listed().getByRole('listitem').count(), 2, 'both calendars listed');
  });
});
