import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GraphPeer, type PeerChannel } from '../../services/teams/test/peer/graph-peer.js';
import { createPeerTls, type PeerTls } from '../../services/teams/test/peer/peer-tls.js';
import { browserSuite, launchBrowser, registerUser, screenshot, signedInStorage, startApp, type RunningApp, type Session } from './fixtures/harness.js';

const HOUR = 3600_000;
const utc = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 23), timeZone: 'UTC' });

/** Signed in as `session`; certificate errors ignored so the consent tab can open the self-signed peer. */
function teamsContext(browser: Browser, app: RunningApp, session: Session, width = 1366): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: app.url,
    viewport: { width, height: 900 },
    locale: 'es-ES',
    ignoreHTTPSErrors: true,
    storageState: signedInStorage(app, session),
  });
}

browserSuite(t, () => {
  let tls: PeerTls;
  let peer: GraphPeer;
  let app: RunningApp;
  let browser: Browser;
  let session: Session;
  let context: BrowserContext;
  let page: Page;
  let general: PeerChannel;

  t.before(async () => {
    tls = await createPeerTls();
    peer = await new GraphPeer(tls).start();
    const team = peer.addTeam('Ventas', 5, [{ displayName: 'General' }, { displayName: 'Privado', membershipType: 'private', memberCount: 2 }]);
    peer.addTeam('Soporte', 3, [{ displayName: 'Incidencias' }]);
    general = team.channels[0]!;
    peer.addMessage(general, '<p>Hola <b>equipo</b>, ¿revisamos el <i>pedido</i> 42?</p>', { author: 'Carlos Ruiz', at: new Date(Date.now() - 10 * 60_000) });
    const calendar = peer.addCalendar('Calendario', '#0078d4', true);
    const now = Date.now();
    peer.addEvent(calendar, { subject: 'Daily de ventas', isOnlineMeeting: true, start: utc(now - HOUR / 2), end: utc(now + HOUR / 2), onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/daily' } });
    peer.addEvent(calendar, { subject: 'Cierre de la mañana', isOnlineMeeting: true, start: utc(now - 3 * HOUR), end: utc(now - 2 * HOUR) });
    app = await startApp({
      ...peer.config(),
      // The server's fetch must trust the peer's self-signed certificate.
      NODE_EXTRA_CA_CERTS: tls.caFile,
    });
    browser = await launchBrowser();
    session = await registerUser(app);
    context = await teamsContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
    tls?.dispose();
  });

  t.test('connect: Microsoft opens in a new tab, consent comes back to /teams, that tab hands over and closes', async (t) => {
    await page.goto('/teams');
    await page.getByRole('heading', { name: 'Conecta tu cuenta de Microsoft 365' }).waitFor();
    const popupOpened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Conectar Microsoft Teams' }).click();
    const popup = await popupOpened;
    // The consent's tab lands on /teams, hands its outcome to this tab and closes: one tab of the app is left.
    await popup.waitForEvent('close', { timeout: 30_000 });
    t.ok(peer.requests.some((r) => r.path === '/common/oauth2/v2.0/authorize'), 'the consent went through the identity platform');
    t.equal(context.pages().length, 1, 'no second tab of the app left open');
    await page.getByText('¡Microsoft Teams conectado!').waitFor();
    await page.getByRole('button', { name: 'Desconectar' }).waitFor();
    await page.getByText('Conectado como ana@contoso.example').waitFor();
  });

  t.test('teams with member counts, the first channel selected, its messages as text', async (t) => {
    const teamsList = page.getByRole('region', { name: 'Equipos' });
    await teamsList.getByRole('button', { name: /Ventas\s*5 miembros/ }).waitFor();
    await teamsList.getByRole('button', { name: /Soporte\s*3 miembros/ }).waitFor();
    const channels = page.getByRole('region', { name: 'Canales' });
    const first = channels.getByRole('button', { name: /# General/ });
    await first.waitFor();
    t.equal(await first.getAttribute('aria-pressed'), 'true', 'the first channel is selected');
    await channels.getByRole('button', { name: /# Privado\s*Privado · 2 miembros/ }).waitFor();
    const pane = page.getByRole('region', { name: '# General' });
    await pane.getByText('Hola equipo, ¿revisamos el pedido 42?').waitFor();
    t.equal(await pane.locator('b, i').count(), 0, 'Graph HTML is shown as text, not markup');
  });

  t.test('posting a channel message, and a message written in Teams appears without a reload', async (t) => {
    const pane = page.getByRole('region', { name: '# General' });
    const input = pane.getByLabel('Mensaje para # General');
    const send = pane.getByRole('button', { name: 'Enviar' });
    await input.fill('   ');
    t.equal(await send.isDisabled(), true, 'a blank message cannot be sent');
    await input.fill('Sí, a las 17:00 <b>en punto</b>');
    await send.click();
    await pane.locator('.teams-message-mine', { hasText: 'Sí, a las 17:00 <b>en punto</b>' }).waitFor();
    t.equal(await input.inputValue(), '', 'the box is emptied');
    t.same(general.messages.at(-1)!.body, { contentType: 'text', content: 'Sí, a las 17:00 <b>en punto</b>' }, 'Teams received it');

    peer.addMessage(general, '<p>Perfecto, nos vemos</p>', { author: 'Lucía Pérez' });
    await pane.getByText('Perfecto, nos vemos').waitFor({ timeout: 20_000 });
    t.pass('the new message arrived by polling, no reload');
  });

  t.test('meetings: status labels, and Nueva Reunión creates a Teams meeting with trimmed attendees', async (t) => {
    const meetings = page.getByRole('region', { name: 'Próximas reuniones' });
    await meetings.locator('.teams-meeting', { hasText: 'Daily de ventas' }).getByText('En curso', { exact: true }).waitFor();
    await meetings.locator('.teams-meeting', { hasText: 'Cierre de la mañana' }).getByText('Finalizada', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Nueva Reunión' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva Reunión' });
    await dialog.getByRole('button', { name: 'Crear Reunión' }).click();
    await dialog.getByText('El título es requerido').waitFor();
    await dialog.getByLabel('Título').fill('Presentación a cliente');
    await dialog.getByLabel('Asistentes').fill(' luis@contoso.example ,  marta@contoso.example,');
    await dialog.getByRole('button', { name: 'Crear Reunión' }).click();
    await page.getByText('Reunión de Teams creada').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const created = meetings.locator('.teams-meeting', { hasText: 'Presentación a cliente' });
    await created.getByText('Programada', { exact: true }).waitFor();
    await created.getByText('2 asistentes').waitFor();
    t.match(await created.getByRole('link', { name: 'Unirse' }).getAttribute('href'), /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\//);
    const stored = peer.calendars[0]!.events.at(-1)!;
    t.same(stored.attendees?.map((a) => a.emailAddress?.address), ['luis@contoso.example', 'marta@contoso.example'], 'split on commas and trimmed');
    t.equal(stored.isOnlineMeeting, true);
    await screenshot(page, 'teams-conectado');
  });

  t.test('usable at 360 px: nothing wider than the screen, the send box reachable', async (t) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    const pane = page.getByRole('region', { name: '# General' });
    await pane.getByText('Perfecto, nos vemos').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.equal(overflow, 0, 'no horizontal scroll');
    const box = await pane.getByRole('button', { name: 'Enviar' }).boundingBox();
    t.ok(box && box.x >= 0 && box.x + box.width <= 360, 'the send button fits');
    await screenshot(page, 'teams-360');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  t.test('a revoked Microsoft session offers to connect again, and coming back loads the teams', async (t) => {
    peer.expireAccessTokens();
    peer.revokeRefreshTokens();
    await page.reload();
    const teamsList = page.getByRole('region', { name: 'Equipos' });
    await teamsList.getByText('vuelve a conectar tu cuenta de Microsoft').waitFor();
    const popupOpened = context.waitForEvent('page');
    await teamsList.getByRole('button', { name: 'Volver a conectar' }).click();
    const popup = await popupOpened;
    await popup.waitForEvent('close', { timeout: 30_000 });
    await teamsList.getByRole('button', { name: /Ventas\s*5 miembros/ }).waitFor();
    t.pass('the teams load again with the new session');
  });

  t.test('Desconectar returns to the connect screen', async (t) => {
    await page.getByRole('button', { name: 'Desconectar' }).click();
    await page.getByRole('dialog', { name: 'Desconectar Microsoft Teams' }).getByRole('button', { name: 'Desconectar' }).click();
    await page.getByRole('button', { name: 'Conectar Microsoft Teams' }).waitFor();
    t.equal(await page.getByRole('region', { name: 'Equipos' }).count(), 0, 'teams and channels cleared');
  });

  t.test('without MICROSOFT_CLIENT_ID/SECRET the owner is told to ask the administrator; the setting names are folded for them', async (t) => {
    const bare = await startApp();
    t.teardown(() => bare.stop());
    const owner = await registerUser(bare);
    const bareContext = await teamsContext(browser, bare, owner);
    t.teardown(() => bareContext.close());
    const barePage = await bareContext.newPage();
    await barePage.goto('/teams');
    const note = barePage.getByRole('alert').filter({ hasText: 'Pide al administrador que configure la conexión con Microsoft 365.' });
    await note.waitFor();
    t.notOk(await note.getByText('MICROSOFT_CLIENT_ID').isVisible(), 'no setting names in what the owner reads');
    await note.getByText('Para el administrador').click();
    await note.getByText('MICROSOFT_CLIENT_ID').waitFor();
    await note.getByText('MICROSOFT_CLIENT_SECRET').waitFor();
    t.equal(await barePage.getByRole('button', { name: 'Conectar Microsoft Teams' }).isDisabled(), true, 'nothing to connect to');
  });
});
