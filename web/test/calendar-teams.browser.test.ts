import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GraphPeer } from '../../services/teams/test/peer/graph-peer.js';
import { createPeerTls, type PeerTls } from '../../services/teams/test/peer/peer-tls.js';
import { dayOfThisMonth } from './fixtures/calendar.js';
import { browserSuite, launchBrowser, registerUser, signedInStorage, startApp, type RunningApp } from './fixtures/harness.js';

/** Graph's dateTimeTimeZone in UTC for an ISO instant or a date's midnight. */
const graphTime = (iso: string) => ({ dateTime: iso.slice(0, 23), timeZone: 'UTC' });

browserSuite(t, () => {
  let tls: PeerTls;
  let peer: GraphPeer;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  t.before(async () => {
    tls = await createPeerTls();
    peer = await new GraphPeer(tls).start();
    const main = peer.addCalendar('Calendario', '#0078d4', true);
    const projects = peer.addCalendar('Proyectos', '#e3008c', false);
    const day = dayOfThisMonth(10);
    peer.addEvent(main, {
      subject: 'Revisión con Contoso',
      isOnlineMeeting: true,
      start: graphTime(new Date(`${day}T10:00`).toISOString()),
      end: graphTime(new Date(`${day}T11:00`).toISOString()),
      onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/contoso' },
    });
    peer.addEvent(main, { subject: 'Congreso en Lisboa', isAllDay: true, start: graphTime(`${dayOfThisMonth(12)}T00:00:00.000`), end: graphTime(`${dayOfThisMonth(14)}T00:00:00.000`) });
    peer.addEvent(projects, { subject: 'Entrega del proyecto', start: graphTime(new Date(`${dayOfThisMonth(16)}T09:00`).toISOString()), end: graphTime(new Date(`${dayOfThisMonth(16)}T10:00`).toISOString()) });
    app = await startApp({
      ...peer.config(),
      NODE_EXTRA_CA_CERTS: tls.caFile,
    });
    browser = await launchBrowser();
    const session = await registerUser(app);
    // Certificate errors ignored so the consent tab can open the self-signed Microsoft peer.
    context = await browser.newContext({
      baseURL: app.url,
      viewport: { width: 1366, height: 900 },
      locale: 'es-ES',
      ignoreHTTPSErrors: true,
      storageState: signedInStorage(app, session),
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
    tls?.dispose();
  });

  t.test('before Teams is connected the teams source shows a hint linking to /teams', async (t) => {
    await page.goto('/calendar');
    await page.getByRole('button', { name: 'Teams', exact: true }).click();
    const hint = page.getByRole('link', { name: 'Ir a Teams' });
    await hint.waitFor();
    t.equal(await hint.getAttribute('href'), '/teams');
  });

  t.test('once connected, Calendario shows the Microsoft calendars and their events', async (t) => {
    await page.goto('/teams');
    const popupOpened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Conectar Microsoft Teams' }).click();
    const popup = await popupOpened;
    await popup.waitForEvent('close', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Desconectar' }).waitFor();

    await page.goto('/calendar');
    await page.getByRole('button', { name: 'Teams', exact: true }).click();
    const card = page.getByRole('region', { name: 'Microsoft Teams' });
    await card.getByText('Conectado', { exact: true }).waitFor();
    const meeting = page.locator(`[data-day="${dayOfThisMonth(10)}"]`).getByRole('button', { name: /Revisión con Contoso/ });
    await meeting.waitFor();
    await page.locator(`[data-day="${dayOfThisMonth(13)}"]`).getByText('Congreso en Lisboa').waitFor();
    t.equal(await page.locator(`[data-day="${dayOfThisMonth(14)}"]`).getByText('Congreso en Lisboa').count(), 0, "Graph's exclusive all-day end shown one day earlier");

    await meeting.click();
    // Outlook events are edited here like Google's and CalDAV's (calendar-outlook.browser.test.ts writes them).
    const details = page.getByRole('dialog', { name: 'Editar Evento' });
    t.equal(await details.getByLabel('Título').inputValue(), 'Revisión con Contoso', 'the meeting opens in the edit form');
    t.equal(await details.getByRole('link', { name: 'Unirse a la reunión' }).getAttribute('href'), 'https://teams.microsoft.com/l/meetup-join/contoso');
    await details.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await details.waitFor({ state: 'detached' });
    t.equal(await page.getByRole('button', { name: 'Nuevo evento', exact: true }).count(), 1, 'a new event can go to an Outlook calendar from the Teams tab');

    await page.getByRole('button', { name: 'Lista', exact: true }).click();
    await page.locator('.cal-list-item', { hasText: 'Congreso en Lisboa' }).getByText(/todo el día/).waitFor();
    await page.getByRole('button', { name: 'Mes', exact: true }).click();

    await card.getByRole('button', { name: 'Listar calendarios' }).click();
    const picker = page.getByRole('dialog', { name: 'Elegir calendario de Teams' });
    const use = picker.getByRole('button', { name: 'Usar este calendario' });
    await picker.getByText('Proyectos').waitFor();
    t.ok(await use.isDisabled(), 'disabled until a calendar is chosen');
    await picker.getByText('Proyectos').click();
    await use.click();
    await card.getByText('Calendario: Proyectos').waitFor();
    // Without a chosen calendar the tab showed every Outlook calendar: the default one's meeting leaves once Proyectos loads.
    await page.getByText('Revisión con Contoso').waitFor({ state: 'detached' });
    await page.locator(`[data-day="${dayOfThisMonth(16)}"]`).getByText('Entrega del proyecto').waitFor();
    t.equal(await page.getByText('Revisión con Contoso').count(), 0, 'only the chosen calendar');
  });
});
