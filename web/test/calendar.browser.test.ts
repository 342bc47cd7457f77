import t from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import {
  api,
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
    // Google's consent (the peer's), then our public callback, then back to the screen in that tab, which
    // hands the outcome to this one and closes: the owner is left with one tab of the app.
    await tab.waitForEvent('close');
    t.ok(peer.requests.some((r) => r.path === '/o/oauth2/v2/auth'), 'the tab went through Google');
    t.equal(context.pages().length, 1, 'no second tab of the app left open');
    await toast(page, '¡Google Calendar conectado!').waitFor();
    await page.getByRole('heading', { name: 'Google Calendar & Meet', level: 1 }).waitFor();
    await page.getByText(`Conectado como ${EMAIL}`).waitFor();
    for (const name of ['Nuevo Evento', 'Nueva Reunión Meet', 'Desconectar']) await page.getByRole('button', { name, exact: true }).waitFor();
    const primary = page.getByRole('button', { name: new RegExp(EMAIL) });
    await primary.getByText('Principal').waitFor();
    t.equal(await primary.getAttribute('aria-pressed'), 'true', 'the primary calendar is selected');
    await page.getByText('No hay eventos próximos').waitFor();
    await screenshot(page, 'google-calendar-conectado');
  });

  t.test('an outcome no other tab takes (the consent ran in this tab) is shown here and taken out of the address', async (t) => {
    await page.goto('/google-calendar?google=denied');
    await toast(page, 'No diste permiso a Google Calendar: la conexión se canceló').waitFor();
    t.equal(new URL(page.url()).search, '', 'a reload does not repeat it');
    t.notOk(page.isClosed(), 'the only tab stays open');
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

  t.test('a Meet meeting planned from a contact\'s page, the contact invited, shown in its timeline', async (t) => {
    const contact = await api<{ id: string }>(app, 'POST', 'contacts', { firstName: 'Rosa', lastName: 'Vidal', email: 'rosa.vidal@acme.com' }, session.token);
    t.equal(contact.status, 201);
    await page.goto(`/contacts/${contact.body.id}`);
    await page.getByRole('heading', { name: 'Rosa Vidal', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Programar reunión' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva Reunión Google Meet' });
    t.equal(await dialog.getByLabel('Título').inputValue(), 'Reunión con Rosa Vidal');
    t.equal(await dialog.getByLabel('Asistentes').inputValue(), 'rosa.vidal@acme.com', 'the contact is invited');
    await dialog.getByRole('button', { name: 'Crear Reunión' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, 'Reunión de Meet creada').waitFor();
    const insert = peer.apiRequests('/events', 'POST').at(-1)!;
    t.equal(insert.query.conferenceDataVersion, '1', 'a Meet conference');
    t.match(insert.body, { summary: 'Reunión con Rosa Vidal', attendees: [{ email: 'rosa.vidal@acme.com' }] });
    const activity = page.locator('section', { has: page.getByRole('heading', { name: 'Actividad' }) });
    await activity.getByText('Reunión con Rosa Vidal').waitFor();
  });

  t.test('Google Calendar at 360 px wide', async (t) => {
    await page.setViewportSize({ width: 360, height: 780 });
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
