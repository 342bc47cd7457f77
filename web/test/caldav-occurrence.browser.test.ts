import t from 'tap';
import type { Page } from 'playwright-core';
import { startRadicale, type Radicale } from '../../services/calendar/test/fixtures/radicale.js';
import { api, appAndBrowser, browserSuite, registerUser, signedInContext, type Session } from './fixtures/harness.js';

const ana = { user: 'ana', password: 'clave-de-aplicacion' };

const pad = (n: number) => String(n).padStart(2, '0');
/** A day of the month the screen opens on, as the grid keys it (the browser runs in this machine's zone). */
const dayKey = (day: number) => {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(day)}`;
};
/** 10:00 local on that day, as iCalendar UTC. */
const utc = (day: number, hour = 10) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), day, hour).toISOString().replace(/[-:]|\.\d{3}/g, '');
};

/** A weekly review on the 1st, 8th, 15th and 22nd of this month, at 10:00 local. */
const SERIES = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Prueba//ES',
  'BEGIN:VEVENT', 'UID:revision', 'DTSTAMP:20261101T000000Z', `DTSTART:${utc(1)}`, `DTEND:${utc(1, 11)}`, 'RRULE:FREQ=WEEKLY;COUNT=4', 'SUMMARY:Revisión semanal', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

browserSuite(t, () => {
  // Radicale listens on loopback: allowed as an operator allows a server of their own network.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let radicale: Radicale;
  let session: Session;
  let page: Page;
  const chip = (day: number, name: string | RegExp) => page.locator(`[data-day="${dayKey(day)}"]`).getByRole('button', { name });

  t.before(async () => {
    radicale = await startRadicale([ana]);
    await radicale.makeCalendar(ana, 'personal', 'Personal', '#0E7490FF');
    const put = await radicale.request(ana, 'PUT', '/ana/personal/revision.ics', SERIES, { 'content-type': 'text/calendar' });
    if (put.status !== 201) throw new Error(`PUT answered ${put.status}`);
    session = await registerUser(stage.app);
    const connected = await api(stage.app, 'POST', 'caldav/connect', { url: radicale.url, username: 'ana', password: ana.password }, session.token);
    if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await radicale?.stop();
  });

  t.test('editing one occurrence of a CalDAV series in Calendario moves that one only', async (t) => {
    await page.goto('/calendar');
    for (const day of [1, 8, 15, 22]) await chip(day, /Revisión semanal/).waitFor();
    await chip(8, /Revisión semanal/).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Evento' });
    await dialog.getByText('Se repite: guardar o eliminar afecta solo a esta fecha; el resto de la serie no cambia.').waitFor();
    await dialog.getByLabel('Título').fill('Revisión con el gestor');
    const now = new Date();
    const local = (hour: number) => `${now.getFullYear()}-${pad(now.getMonth() + 1)}-09T${pad(hour)}:00`;
    await dialog.getByLabel('Inicio').fill(local(12));
    await dialog.getByLabel('Fin').fill(local(13));
    await dialog.getByRole('button', { name: 'Guardar Cambios' }).click();
    await dialog.waitFor({ state: 'detached' });

    await chip(9, /Revisión con el gestor/).waitFor();
    await chip(8, /Revisión/).waitFor({ state: 'detached' });
    for (const day of [1, 15, 22]) t.equal(await chip(day, /Revisión semanal/).count(), 1, `day ${day} unchanged`);
    t.equal(await page.getByRole('button', { name: /Revisión con el gestor/ }).count(), 1, 'the moved occurrence once');
    const stored = await (await radicale.request(ana, 'GET', '/ana/personal/revision.ics')).text();
    t.match(stored, new RegExp(`RECURRENCE-ID:${utc(8)}`), 'an override on the server for the 8th');
    t.match(stored, /SUMMARY:Revisión con el gestor/);
  });

  t.test('deleting one occurrence leaves the rest of the series', async (t) => {
    await chip(15, /Revisión semanal/).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Evento' });
    await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirmar eliminación' }).click();
    await dialog.waitFor({ state: 'detached' });
    await chip(15, /Revisión/).waitFor({ state: 'detached' });
    for (const day of [1, 22]) t.equal(await chip(day, /Revisión semanal/).count(), 1, `day ${day} stays`);
    t.equal(await chip(9, /Revisión con el gestor/).count(), 1, 'the moved one stays');
    t.match(await (await radicale.request(ana, 'GET', '/ana/personal/revision.ics')).text(), new RegExp(`EXDATE:${utc(15)}`), 'an EXDATE on the server');
  });
});
