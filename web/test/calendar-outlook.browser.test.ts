import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GraphPeer, type PeerCalendar } from '../../services/teams/test/peer/graph-peer.js';
import { createPeerTls, type PeerTls } from '../../services/teams/test/peer/peer-tls.js';
import { dayOfThisMonth } from './fixtures/calendar.js';
import { browserSuite, launchBrowser, LAPTOP, PHONE, registerUser, signedInStorage, startApp, type RunningApp } from './fixtures/harness.js';
import { expectCleanLayout } from './fixtures/layout-check.js';

/**
 * Outlook events written from Calendario like Google's and CalDAV's: Nuevo evento offers the Outlook calendars,
 * the event lands in the chosen one at Graph, and it is edited and deleted there from the same form (through
 * /api/events with the event's calendarId). At 1280x800 and 360x740, against the Graph peer.
 */
const graphTime = (iso: string) => ({ dateTime: iso.slice(0, 23), timeZone: 'UTC' });
const SIZES = [
  { name: '1280x800', viewport: LAPTOP, day: 18 },
  { name: '360x740', viewport: PHONE, day: 20 },
] as const;

browserSuite(t, () => {
  let tls: PeerTls;
  let peer: GraphPeer;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let main: PeerCalendar;
  let projects: PeerCalendar;

  t.before(async () => {
    tls = await createPeerTls();
    peer = await new GraphPeer(tls).start();
    main = peer.addCalendar('Calendario', '#0078d4', true);
    projects = peer.addCalendar('Proyectos', '#e3008c', false);
    const day = dayOfThisMonth(10);
    peer.addEvent(main, {
      subject: 'Revisión con Contoso',
      isOnlineMeeting: true,
      start: graphTime(new Date(`${day}T10:00`).toISOString()),
      end: graphTime(new Date(`${day}T11:00`).toISOString()),
      onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/contoso' },
    });
    app = await startApp({
      ...peer.config(),
      NODE_EXTRA_CA_CERTS: tls.caFile,
    });
    browser = await launchBrowser();
    const session = await registerUser(app);
    // Certificate errors ignored so the consent tab can open the self-signed Microsoft peer.
    context = await browser.newContext({ baseURL: app.url, viewport: LAPTOP, locale: 'es-ES', ignoreHTTPSErrors: true, storageState: signedInStorage(app, session) });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await page.goto('/teams');
    const popupOpened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Conectar Microsoft Teams' }).click();
    await (await popupOpened).waitForEvent('close', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Desconectar' }).waitFor();
    await page.close();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
    tls?.dispose();
  });

  for (const size of SIZES) {
    t.test(`${size.name}: create, edit and delete an Outlook event from Calendario`, async (t) => {
      const page: Page = await context.newPage();
      t.teardown(() => page.close());
      await page.setViewportSize(size.viewport);
      const day = dayOfThisMonth(size.day);
      const chip = (name: string | RegExp) => page.locator(`[data-day="${day}"]`).getByRole('button', { name });
      const inProjects = (subject: string) => projects.events.filter((e) => e.subject === subject);
      const title = `Visita de obra ${size.name}`;

      await page.goto('/calendar');
      // The local tab merges every Outlook calendar with an Outlook-only account.
      await page.locator(`[data-day="${dayOfThisMonth(10)}"]`).getByRole('button', { name: /Revisión con Contoso/ }).waitFor();

      await page.getByRole('button', { name: 'Nuevo evento', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Nuevo Evento' });
      const calendar = form.getByLabel('Calendario');
      t.same(await calendar.locator('optgroup').evaluateAll((groups) => groups.map((g) => (g as HTMLOptGroupElement).label)), ['Outlook (Microsoft)'], 'the Outlook calendars, as a group');
      t.same(await calendar.locator('option').allTextContents(), ['Calendario', 'Proyectos'], 'every Outlook calendar offered');
      await calendar.selectOption({ label: 'Proyectos' });
      await form.getByLabel('Título').fill(title);
      await form.getByLabel('Inicio').fill(`${day}T10:00`);
      await form.getByLabel('Fin').fill(`${day}T11:30`);
      await form.getByLabel('Ubicación').fill('Calle Mayor 1');
      await expectCleanLayout(t, page, `Nuevo Evento en Outlook ${size.name}`, '[role="dialog"]');
      await form.getByRole('button', { name: 'Crear Evento' }).click();
      await form.waitFor({ state: 'detached' });
      await chip(new RegExp(title)).waitFor();
      t.equal(inProjects(title).length, 1, 'created in Proyectos at Graph');
      t.match(inProjects(title)[0], { location: { displayName: 'Calle Mayor 1' } }, 'with its location');
      t.equal(main.events.filter((e) => e.subject === title).length, 0, 'not in the default calendar');
      const id = inProjects(title)[0]!.id;

      await chip(new RegExp(title)).click();
      const edit = page.getByRole('dialog', { name: 'Editar Evento' });
      t.equal(await edit.getByLabel('Calendario').count(), 0, 'an event stays in its calendar');
      await edit.getByLabel('Título').fill(`${title} (revisada)`);
      await edit.getByRole('button', { name: 'Guardar Cambios' }).click();
      await edit.waitFor({ state: 'detached' });
      await chip(new RegExp(`${title} \\(revisada\\)`)).waitFor();
      t.same(projects.events.filter((e) => e.id === id).map((e) => e.subject), [`${title} (revisada)`], 'the same Graph event, retitled');

      await chip(new RegExp(`${title} \\(revisada\\)`)).click();
      await edit.getByRole('button', { name: 'Eliminar', exact: true }).click();
      await edit.getByRole('button', { name: 'Confirmar eliminación' }).click();
      await edit.waitFor({ state: 'detached' });
      await chip(new RegExp(title)).waitFor({ state: 'detached' });
      t.equal(projects.events.filter((e) => e.id === id).length, 0, 'gone at Graph');
      t.equal(main.events.filter((e) => e.subject === 'Revisión con Contoso').length, 1, 'the meeting untouched');
    });
  }

  t.test('on the Teams tab, Nuevo evento starts in the Outlook calendar chosen there', async (t) => {
    const page = await context.newPage();
    t.teardown(() => page.close());
    await page.goto('/calendar');
    await page.getByRole('button', { name: 'Teams', exact: true }).click();
    await page.getByRole('region', { name: 'Microsoft Teams' }).getByRole('button', { name: 'Listar calendarios' }).click();
    const picker = page.getByRole('dialog', { name: 'Elegir calendario de Teams' });
    await picker.getByText('Proyectos').click();
    await picker.getByRole('button', { name: 'Usar este calendario' }).click();
    await page.getByRole('region', { name: 'Microsoft Teams' }).getByText('Calendario: Proyectos').waitFor();
    await page.getByRole('button', { name: 'Nuevo evento', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Nuevo Evento' });
    t.equal(await form.getByLabel('Calendario').inputValue(), projects.id, 'Proyectos preselected');
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await form.waitFor({ state: 'detached' });
  });

  t.test('a Teams meeting opens in the same form, with its join link', async (t) => {
    const page = await context.newPage();
    t.teardown(() => page.close());
    await page.goto('/calendar');
    await page.locator(`[data-day="${dayOfThisMonth(10)}"]`).getByRole('button', { name: /Revisión con Contoso/ }).click();
    const edit = page.getByRole('dialog', { name: 'Editar Evento' });
    t.equal(await edit.getByRole('link', { name: 'Unirse a la reunión' }).getAttribute('href'), 'https://teams.microsoft.com/l/meetup-join/contoso');
    t.equal(await edit.getByLabel('Título').inputValue(), 'Revisión con Contoso');
    t.equal(await page.getByText('Los eventos de Teams se editan en Microsoft Teams.').count(), 0, 'no longer read-only');
    await edit.getByRole('button', { name: 'Cancelar' }).click();
  });
});
