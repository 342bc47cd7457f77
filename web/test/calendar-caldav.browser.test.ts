import t from 'tap';
import type { Page } from 'playwright-core';
import { startRadicale, type Radicale } from '../../services/calendar/test/fixtures/radicale.js';
import { appAndBrowser, browserSuite, registerUser, signedInContext, type Session } from './fixtures/harness.js';

const ana = { user: 'ana', password: 'clave-de-aplicacion' };

/** Day 15 of the month the screen opens on, at 10:00 UTC (the browser runs in the machine's zone, UTC here). */
function midMonth(): { ics: string; day: string } {
  const now = new Date();
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-15`;
  const compact = day.replace(/-/g, '');
  const ics = [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
    'BEGIN:VEVENT', 'UID:dentista', 'DTSTAMP:20261101T000000Z', `DTSTART:${compact}T100000Z`, `DTEND:${compact}T110000Z`, 'SUMMARY:Cita con el dentista', 'END:VEVENT',
    'END:VCALENDAR', '',
  ].join('\r\n');
  return { ics, day };
}

browserSuite(t, () => {
  // Radicale listens on loopback: allowed as an operator allows a server of their own network.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let radicale: Radicale;
  let session: Session;
  let page: Page;
  const { ics, day } = midMonth();

  t.before(async () => {
    radicale = await startRadicale([ana]);
    await radicale.makeCalendar(ana, 'personal', 'Personal', '#0E7490FF');
    const put = await radicale.request(ana, 'PUT', '/ana/personal/dentista.ics', ics, { 'content-type': 'text/calendar' });
    if (put.status !== 201) throw new Error(`PUT answered ${put.status}`);
    session = await registerUser(stage.app);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await radicale?.stop();
  });

  t.test('connecting CalDAV in Calendario: a wrong password is said, the right one shows its calendars and events', async (t) => {
    await page.goto('/calendar');
    const card = page.getByRole('region', { name: 'CalDAV (iCloud, Fastmail, Nextcloud)' });
    await card.getByRole('button', { name: 'Fastmail' }).click();
    t.equal(await card.getByLabel('Dirección del servidor').inputValue(), 'https://caldav.fastmail.com', 'a preset fills the address');
    await card.getByLabel('Dirección del servidor').fill(radicale.url);
    await card.getByLabel('Usuario').fill('ana');
    await card.getByLabel('Contraseña de aplicación').fill('equivocada');
    await card.getByRole('button', { name: 'Conectar' }).click();
    await card.getByRole('alert').getByText('El servidor CalDAV rechazó el usuario o la contraseña de aplicación').waitFor();

    await card.getByLabel('Contraseña de aplicación').fill(ana.password);
    await card.getByRole('button', { name: 'Conectar' }).click();
    await card.getByText(`Conectado como ana en 127.0.0.1:${radicale.port}`).waitFor();
    await card.getByRole('list', { name: 'Calendarios CalDAV' }).getByText('Personal').waitFor();

    const cell = page.locator(`[data-day="${day}"]`);
    const chip = cell.getByRole('button', { name: /Cita con el dentista/ });
    await chip.waitFor();
    t.match(await chip.textContent(), /CalDAV/, 'labelled as CalDAV');
    t.match(await chip.getAttribute('class'), /cal-source-caldav/, 'in CalDAV colours');
  });

  t.test('disconnecting brings the form back and the event leaves the grid', async (t) => {
    const card = page.getByRole('region', { name: 'CalDAV (iCloud, Fastmail, Nextcloud)' });
    await card.getByRole('button', { name: 'Desconectar' }).click();
    await card.getByRole('button', { name: 'Conectar' }).waitFor();
    await page.locator(`[data-day="${day}"]`).getByRole('button', { name: /Cita con el dentista/ }).waitFor({ state: 'detached' });
    t.pass('gone');
  });
});
