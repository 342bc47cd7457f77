import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { GraphPeer } from '../../services/teams/test/peer/graph-peer.js';
import { createPeerTls, type PeerTls } from '../../services/teams/test/peer/peer-tls.js';
import { nextHourSlot } from '../src/lib/local-datetime.js';
import { expectCleanLayout } from './fixtures/layout-check.js';
import { api, browserSuite, launchBrowser, registerUser, screenshot, signedInStorage, startApp, type RunningApp, type Session } from './fixtures/harness.js';

const EMAIL = 'panaderia.google@ejemplo.com';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
] as const;
const statValue = (page: Page, label: string) => page.locator('.stat-card', { hasText: label }).locator('.stat-value');

browserSuite(t, () => {
  let tls: PeerTls;
  let graph: GraphPeer;
  let google: GooglePeer;
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let session: Session;

  t.before(async () => {
    tls = await createPeerTls();
    graph = await new GraphPeer(tls).start();
    graph.addCalendar('Calendario', '#0078d4', true);
    google = await new GooglePeer().start();
    google.addAccount(EMAIL);
    app = await startApp({
      ...google.config(),
      ...graph.config(),
      NODE_EXTRA_CA_CERTS: tls.caFile,
    });
    browser = await launchBrowser();
    session = await registerUser(app);
    context = await browser.newContext({
      baseURL: app.url,
      viewport: SIZES[0],
      locale: 'es-ES',
      ignoreHTTPSErrors: true,
      storageState: signedInStorage(app, session),
    });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();

    // Both providers connected the way an owner does it: each consent in a tab of its own.
    await page.goto('/google-calendar');
    const [googleTab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Conectar Google Calendar' }).click()]);
    await googleTab.waitForEvent('close');
    await page.getByText(`Conectado como ${EMAIL}`).waitFor();
    await page.goto('/teams');
    const [teamsTab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Conectar Microsoft Teams' }).click()]);
    await teamsTab.waitForEvent('close');
    await page.getByRole('button', { name: 'Desconectar' }).waitFor();
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await google?.stop();
    await graph?.stop();
    tls?.dispose();
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: Calendario, reloaded with Teams connected, says so`, async (t) => {
      await page.setViewportSize(size);
      await page.goto('/calendar');
      const card = page.getByRole('region', { name: 'Microsoft Teams' });
      await card.getByText('Conectado', { exact: true }).waitFor();
      await page.reload();
      await card.getByText('Conectado', { exact: true }).waitFor();
      t.equal(await card.getByText('Sin conexión con Microsoft').count(), 0, 'on the Google tab too, without opening the Teams tab');
      t.equal(await page.getByRole('button', { name: 'Teams', exact: true }).getAttribute('aria-pressed'), 'false', 'the Teams tab was never opened');
      await screenshot(page, `calendario-teams-conectado-${size.width}`);
      // Screens the every-screen check sees only unconnected: Calendario and Teams with both providers in.
      await page.waitForFunction(() => !/Cargando/.test(document.querySelector('main')?.textContent ?? ''));
      await expectCleanLayout(t, page, 'Calendario with Google and Teams connected');
      await page.goto('/teams');
      await page.getByRole('button', { name: 'Desconectar' }).waitFor();
      await page.waitForFunction(() => !/Cargando/.test(document.querySelector('main')?.textContent ?? ''));
      await expectCleanLayout(t, page, 'Teams connected');
      await screenshot(page, `teams-conectado-${size.width}`);
    });
  }

  t.test('one event, one Meet and one Teams meeting, created at the next working hour', async (t) => {
    await page.setViewportSize(SIZES[0]);
    await page.goto('/google-calendar');
    await page.getByRole('button', { name: 'Nuevo Evento' }).click();
    const event = page.getByRole('dialog', { name: 'Nuevo Evento' });
    // Computed around the form's opening: an hour may turn in between.
    const slots = [nextHourSlot().start, nextHourSlot(new Date(Date.now() + 60_000)).start];
    t.ok(slots.includes(await event.getByLabel('Inicio', { exact: true }).inputValue()), 'starts at the next working hour, not 23:00');
    await event.getByLabel('Título').fill('Entrega de harina');
    await event.getByRole('button', { name: 'Crear Evento' }).click();
    await event.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Nueva Reunión Meet' }).click();
    const meet = page.getByRole('dialog', { name: 'Nueva Reunión Google Meet' });
    await meet.getByLabel('Título').fill('Cata con clientes');
    await meet.getByRole('button', { name: 'Crear Reunión' }).click();
    await meet.waitFor({ state: 'detached' });

    await page.goto('/teams');
    await page.getByRole('button', { name: 'Nueva Reunión' }).click();
    const teams = page.getByRole('dialog', { name: 'Nueva Reunión' });
    const start = await teams.getByLabel('Inicio', { exact: true }).inputValue();
    t.ok([nextHourSlot().start, ...slots].includes(start), 'the Teams meeting form too');
    await teams.getByLabel('Título').fill('Revisión con el gestor');
    await teams.getByRole('button', { name: 'Crear Reunión' }).click();
    await teams.waitFor({ state: 'detached' });

    // Analytics follows the services through their events: wait until all three have reached it (a state,
    // not a number of tries: the file's timeout is the limit).
    const expected = ['calendar.event.created', 'meet.meeting.created', 'teams.meeting.created'];
    const arrived = Date.now();
    for (let seen: string[] = []; !expected.every((type) => seen.includes(type)); ) {
      const recent = await api<{ items: { type: string }[] }>(app, 'GET', 'analytics/recent?limit=10', undefined, session.token);
      seen = recent.body.items.map((i) => i.type);
      if (!expected.every((type) => seen.includes(type))) await new Promise((r) => setTimeout(r, 250));
    }
    t.pass('the event and both meetings reached analytics');
    t.comment(`analytics had all three ${Date.now() - arrived} ms after the Teams meeting was created`);
  });

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: Dashboard and Analytics count 3 events, and the activity names each once`, async (t) => {
      await page.setViewportSize(size);
      await page.goto('/');
      await statValue(page, 'Eventos (30 días)').filter({ hasText: /^3$/ }).waitFor();
      const activity = page.locator('.activity-list li');
      await activity.first().waitFor();
      const lines = (await activity.allInnerTexts()).map((line) => line.split('\n')[0]!.trim());
      t.same(
        lines.filter((line) => /Evento|Reunión/.test(line)),
        ['Reunión de Teams creada: Revisión con el gestor', 'Reunión de Google Meet creada: Cata con clientes', 'Evento creado: Entrega de harina'],
        'each thing done once, under its own name',
      );
      await screenshot(page, `dashboard-tres-eventos-${size.width}`);
      await expectCleanLayout(t, page, 'Dashboard with activity');

      await page.goto('/analytics');
      await statValue(page, 'Eventos').filter({ hasText: /^3$/ }).waitFor();
      t.pass('Analytics says 3 as well');
      await screenshot(page, `analytics-tres-eventos-${size.width}`);
      await page.waitForFunction(() => !/Cargando/.test(document.querySelector('main')?.textContent ?? ''));
      await expectCleanLayout(t, page, 'Analytics with figures');
    });
  }
});
