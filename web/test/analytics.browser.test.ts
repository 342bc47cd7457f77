import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { Browser, Page, Request } from 'playwright-core';
import {
  api,
  browserSuite,
  launchBrowser,
  screenshot,
  SCREENS_DIR,
  seriousA11yViolations,
  signedInContext,
  startApp,
  type RunningApp,
  type Session,
} from './fixtures/harness.js';

const FIGURE_PATHS = ['dashboard', 'activity', 'contacts-growth', 'emails', 'whatsapp', 'teams', 'productivity', 'team'];
const MONTH = '(ene|feb|mar|abr|may|jun|jul|ago|sept|oct|nov|dic)';

interface Totals {
  totalContacts: number;
  totalEvents: number;
  totalEmails: number;
  totalMessages: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const number = (text: string | null) => Number((text ?? '').replace(/\./g, ''));
const es = (value: number) => new Intl.NumberFormat('es-ES').format(value);
const statValue = (page: Page, label: string) => page.locator('.stat-card', { hasText: label }).locator('.stat-value');
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const figure = (page: Page, cardTitle: string, label: string) =>
  card(page, cardTitle).locator('.figure-list div', { has: page.locator('dt', { hasText: label }) }).locator('dd');

/** `--demo` seeds after listening: sign-in works once the account exists, the figures once the events are in. */
async function demoSession(app: RunningApp): Promise<Session> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(250)) {
    const login = await api<Session>(app, 'POST', 'auth/login', { email: 'demo@miasistente.ia', password: 'demo1234' });
    if (login.status === 200) return login.body;
  }
  throw new Error('la cuenta de demostración no apareció a tiempo');
}

async function waitForSeededFigures(app: RunningApp, token: string): Promise<void> {
  let previous = '';
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(1000)) {
    const { body } = await api<Totals>(app, 'GET', 'analytics/dashboard?period=90d', undefined, token);
    const current = JSON.stringify(body);
    if (body.totalContacts >= 300 && body.totalMessages > 0 && current === previous) return;
    previous = current;
  }
  throw new Error('las cifras de la demostración no se estabilizaron a tiempo');
}

/** Counts the seen contacts' total as the stream updates it; marks any reload and any loading text. */
function watchScreen(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { sameDocument: boolean; flashedLoading: boolean };
    w.sameDocument = true;
    w.flashedLoading = false;
    new MutationObserver(() => {
      if (Array.from(document.querySelectorAll('[role="status"]')).some((e) => e.textContent?.includes('Cargando analytics'))) w.flashedLoading = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const screenState = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { sameDocument?: boolean; flashedLoading?: boolean };
    return { sameDocument: w.sameDocument === true, flashedLoading: w.flashedLoading === true };
  });

browserSuite(t, () => {
  let app: RunningApp;
  let browser: Browser;
  let session: Session;
  let page: Page;
  let tz: string;

  t.before(async () => {
    app = await startApp({ DEMO: 'true' });
    browser = await launchBrowser();
    session = await demoSession(app);
    await waitForSeededFigures(app, session.token);
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
  });

  const figures = <T>(path: string, period: string) =>
    api<T>(app, 'GET', `analytics/${path}?period=${period}&tz=${encodeURIComponent(tz)}`, undefined, session.token).then((r) => r.body);

  t.test('every title, card, chart and figure of the demo account', async (t) => {
    const requested: string[] = [];
    const listen = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/analytics/') && url.searchParams.has('period')) requested.push(`${url.pathname} ${url.search}`);
    };
    page.on('request', listen);
    await page.goto('/analytics');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.getByText('Análisis detallado de tu actividad empresarial').waitFor();
    await page.locator('.analytics').waitFor();
    page.off('request', listen);
    t.equal(requested.length, 8, 'eight figures requested');
    t.ok(
      requested.every((r) => r.includes('period=30d') && r.includes(`tz=${encodeURIComponent(tz)}`)),
      '30 días by default, in the browser’s time zone',
    );

    const period = page.getByLabel('Periodo', { exact: true });
    t.same(await period.locator('option').allTextContents(), ['7 días', '30 días', '90 días', '1 año'], 'period choices');
    t.equal(await period.inputValue(), '30d', '30 días selected');

    const totals = await figures<Totals>('dashboard', '30d');
    for (const [label, value] of [
      ['Total Contactos', totals.totalContacts],
      ['Eventos', totals.totalEvents],
      ['Correos', totals.totalEmails],
      ['Mensajes', totals.totalMessages],
    ] as const) {
      const shown = number(await statValue(page, label).textContent());
      t.ok(shown > 0, `${label}: ${shown} is not zero`);
      t.equal(shown, value, `${label} matches the API`);
    }

    const charts: [title: string, shape: string][] = [
      ['Actividad General', '.recharts-area-area'],
      ['Crecimiento de Contactos', '.recharts-line-curve'],
      ['Distribución por Canal', '.recharts-pie-sector'],
      ['Productividad por Día', '.recharts-bar-rectangle'],
    ];
    for (const [title, shape] of charts) {
      await card(page, title).locator(`svg ${shape}`).first().waitFor();
      t.ok((await card(page, title).locator(`svg ${shape}`).count()) > 0, `${title}: the chart is drawn`);
    }
    t.equal(await card(page, 'Distribución por Canal').locator('.recharts-pie-sector').count(), 4, 'four channels in the donut');
    t.ok((await card(page, 'Productividad por Día').locator('.recharts-bar-rectangle').count()) >= 7 * 4, 'four series over seven days');
    const ticks = await card(page, 'Actividad General').locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents();
    t.ok(ticks.length > 1 && ticks.every((x) => new RegExp(`^\\d{1,2} ${MONTH}$`).test(x)), `dates in Spanish: ${ticks.join(', ')}`);
    t.same(
      await card(page, 'Productividad por Día').locator('.recharts-legend-item-text').allTextContents(),
      ['Emails', 'Mensajes', 'Reuniones', 'Contactos'],
      'productivity series',
    );
    t.same(
      await card(page, 'Productividad por Día').locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents(),
      ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'],
      'one bar group per weekday',
    );

    const emails = await figures<{ sent: number; received: number; opened: number; clicked: number }>('emails', '30d');
    const whatsapp = await figures<{ sent: number; received: number; contacts: number; autoReplies: number }>('whatsapp', '30d');
    const teams = await figures<{ messages: number }>('teams', '30d');
    const legend = card(page, 'Distribución por Canal').locator('.chart-legend li');
    t.same(
      (await legend.allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim()),
      [`WhatsApp ${es(whatsapp.sent)}`, `Email ${es(emails.sent)}`, `Teams ${es(teams.messages)}`, `Calendario ${es(totals.totalEvents)}`],
      'legend: WhatsApp sent, Email sent, Teams messages, Calendario events',
    );
    for (const [label, value] of [
      ['Enviados', emails.sent],
      ['Recibidos', emails.received],
      ['Abiertos', emails.opened],
      ['Clicks', emails.clicked],
    ] as const) {
      const shown = number(await figure(page, 'Estadísticas de Email', label).textContent());
      t.ok(shown > 0 && shown === value, `email ${label}: ${shown}`);
    }
    const rate = ((emails.opened / emails.sent) * 100).toFixed(1).replace('.', ',');
    t.equal(await card(page, 'Estadísticas de Email').locator('.rate-value').textContent(), `${rate}%`, `Tasa de apertura ${rate}%`);
    await card(page, 'Estadísticas de Email').getByText('Tasa de apertura').waitFor();
    for (const [label, value] of [
      ['Enviados', whatsapp.sent],
      ['Recibidos', whatsapp.received],
      ['Contactos', whatsapp.contacts],
      ['Auto-respuestas', whatsapp.autoReplies],
    ] as const) {
      const shown = number(await figure(page, 'Estadísticas de WhatsApp', label).textContent());
      t.ok(shown > 0 && shown === value, `WhatsApp ${label}: ${shown}`);
    }

    await page.waitForTimeout(1600); // the charts' entry animation, for the screenshot
    await screenshot(page, 'analytics');
    t.same(await seriousA11yViolations(page), [], 'analytics: no serious or critical accessibility findings');
  });

  t.test('Exportar CSV downloads every figure on screen, for the period shown', async (t) => {
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
    t.match(download.suggestedFilename(), /^analytics-30d-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    t.ok(csv.startsWith('\uFEFF'), 'a BOM for spreadsheet programs');
    const totals = await figures<Totals>('dashboard', '30d');
    t.ok(csv.includes(`Totales\r\nIndicador,Valor\r\nTotal Contactos,${totals.totalContacts}\r\n`), 'the totals as the API gives them');
    const whatsapp = await figures<{ sent: number; received: number }>('whatsapp', '30d');
    t.ok(csv.includes(`Estadísticas de WhatsApp\r\nIndicador,Valor\r\nEnviados,${whatsapp.sent}\r\nRecibidos,${whatsapp.received}\r\n`), 'the WhatsApp card');
    for (const caption of ['Actividad General\r\nFecha,Actividad', 'Crecimiento de Contactos\r\nFecha,Contactos', 'Distribución por Canal\r\nCanal,Total', 'Estadísticas de Email', 'Productividad por Día\r\nDía,Emails,Mensajes,Reuniones,Contactos', 'Equipo\r\nMiembro,Primera respuesta (segundos)']) {
      t.ok(csv.includes(caption), `${caption.split('\r\n')[0]} is in the report`);
    }
  });

  t.test('changing the period reloads the eight figures in parallel', async (t) => {
    // Every 7d request is held until all eight have left the page: only parallel requests get there.
    const held: string[] = [];
    let releaseAll = () => {};
    const allEight = new Promise<void>((resolve) => (releaseAll = resolve));
    const timeout = setTimeout(releaseAll, 10_000);
    await page.route('**/api/analytics/**', async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get('period') !== '7d') return route.continue();
      held.push(url.pathname.replace('/api/analytics/', ''));
      if (held.length === FIGURE_PATHS.length) releaseAll();
      await allEight;
      await route.continue();
    });
    await page.getByLabel('Periodo', { exact: true }).selectOption({ label: '7 días' });
    await page.getByRole('status').filter({ hasText: 'Cargando analytics...' }).waitFor();
    t.pass('Cargando analytics... while the new period loads');
    await allEight;
    clearTimeout(timeout);
    t.same([...held].sort(), [...FIGURE_PATHS].sort(), 'all eight figures were in flight at once with period=7d');
    await page.getByRole('status').filter({ hasText: 'Cargando analytics...' }).waitFor({ state: 'detached' });
    await page.unroute('**/api/analytics/**');

    const totals = await figures<Totals>('dashboard', '7d');
    t.equal(number(await statValue(page, 'Mensajes').textContent()), totals.totalMessages, 'Mensajes now counts 7 días');
    const activity = await figures<{ date: string }[]>('activity', '7d');
    t.equal(activity.length, 7, 'seven days of activity');
    await page.waitForTimeout(1600);
    await screenshot(page, 'analytics-7-dias');
  });

  t.test('Equipo names each member, says durations in words, draws who handled what and downloads it', async (t) => {
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    const screen = await context.newPage();
    const [ana, luis, gone] = [randomUUID(), randomUUID(), randomUUID()];
    const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    await screen.route('**/api/analytics/team?*', (route) =>
      route.fulfill(
        json({
          members: [
            { userId: ana, firstResponseSeconds: 180, resolutionSeconds: 4800, handled: 3 },
            { userId: gone, firstResponseSeconds: 45, resolutionSeconds: null, handled: 1 },
          ],
          assistant: { firstResponseSeconds: 5, handled: 2 },
          workspace: { firstResponseSeconds: 120, resolutionSeconds: 4800, handled: 5 },
          channels: [
            { channel: 'whatsapp', received: 1200, sent: 900, firstResponseSeconds: 150 },
            { channel: 'web', received: 4, sent: 3, firstResponseSeconds: null },
          ],
        }),
      ),
    );
    await screen.route('**/api/conversations/members', (route) =>
      route.fulfill(
        json({
          data: [
            { userId: ana, name: 'Ana López', role: 'owner', available: true, open: 1 },
            { userId: luis, name: '=Luis Pérez', role: 'agent', available: false, open: 0 },
          ],
        }),
      ),
    );
    await screen.goto('/analytics');
    const team = card(screen, 'Equipo');
    const members = team.getByRole('region', { name: 'Equipo: tabla' });
    const rows = async (part: string) => (await members.locator(`${part} tr`).allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    await members.locator('tbody tr').first().waitFor();
    t.same(
      await rows('tbody'),
      ['Ana López 3 min 1 h 20 min 3', 'Antiguo miembro 45 s — 1', '=Luis Pérez — — 0'],
      'members by name (a former one as such), durations in words, most handled first',
    );
    t.same(await rows('tfoot'), ['Asistente (respuestas automáticas) 5 s — 2', 'Total 2 min 1 h 20 min 5'], 'the assistant and the whole team');
    const channels = (await team.getByRole('region', { name: 'Por canal: tabla' }).locator('tbody tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    t.same(channels, ['WhatsApp 1200 900 3 min', 'Chat web 4 3 —'], 'messages and the first response per channel');
    const chart = card(screen, 'Conversaciones atendidas por miembro');
    await chart.locator('svg .recharts-bar-rectangle').first().waitFor();
    t.same(
      await chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents(),
      ['Ana López', 'Antiguo miembro', '=Luis Pérez'],
      'a bar per member',
    );

    const [download] = await Promise.all([screen.waitForEvent('download'), team.getByRole('button', { name: 'Descargar CSV' }).click()]);
    t.match(download.suggestedFilename(), /^equipo-30d-\d{4}-\d{2}-\d{2}\.csv$/);
    t.equal(
      readFileSync((await download.path())!, 'utf8'),
      '\uFEFFMiembro,Primera respuesta (segundos),Resolución (segundos),Conversaciones atendidas\r\n' +
        "Ana López,180,4800,3\r\nAntiguo miembro,45,,1\r\n'=Luis Pérez,,,0\r\n" +
        'Asistente (respuestas automáticas),5,,2\r\nTotal,120,4800,5\r\n',
      'the table as shown, in exact seconds, a name never read as a formula',
    );
  });

  t.test('a contact created elsewhere raises Total Contactos on the open screen', async (t) => {
    const before = number(await statValue(page, 'Total Contactos').textContent());
    await watchScreen(page);
    const created = await api(app, 'POST', 'contacts', { firstName: 'Iván', lastName: 'En Directo', tags: [] }, session.token);
    t.equal(created.status, 201, 'contact created through the API, outside the page');
    await page.waitForFunction(
      (expected) => document.querySelector('.stat-card .stat-value')?.textContent?.replace(/\./g, '') === String(expected),
      before + 1,
    );
    t.pass(`Total Contactos went from ${before} to ${before + 1}`);
    t.same(await screenState(page), { sameDocument: true, flashedLoading: false }, 'no reload and no loading text');
    t.equal(await page.getByLabel('Periodo', { exact: true }).inputValue(), '7d', 'the period is kept');
  });

  t.test('the dashboard reflects a new contact live', async (t) => {
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dashboard' }).click();
    const contacts = statValue(page, 'Contactos');
    await contacts.filter({ hasText: /\d/ }).waitFor();
    const before = number(await contacts.textContent());
    await page.locator('.activity-list li').first().waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await api(app, 'POST', 'contacts', { firstName: 'Nora', lastName: 'Tiempo Real', tags: [] }, session.token);
    await contacts.filter({ hasText: es(before + 1) }).waitFor();
    t.pass(`Contactos went from ${before} to ${before + 1}`);
    await page.locator('.activity-list li').first().filter({ hasText: 'Nuevo contacto: Nora Tiempo Real' }).waitFor();
    t.pass('the new contact heads the recent activity');
    t.ok((await screenState(page)).sameDocument, 'without a reload');
  });

  t.test('the stream reconnects after its retry: and refetches what it may have missed', async (t) => {
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    const live = await context.newPage();
    const streams: number[] = [];
    let dashboardLoads = 0;
    live.on('request', (request) => {
      if (request.url().includes('/api/analytics/dashboard?')) dashboardLoads += 1;
    });
    // The first connection ends at once after asking for a 100 ms retry; the next ones reach the server.
    await live.route('**/api/analytics/stream', (route) => {
      streams.push(Date.now());
      if (streams.length > 1) return route.continue();
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 100\nevent: ready\ndata: {}\n\n' });
    });
    await live.goto('/analytics');
    await live.locator('.analytics').waitFor();
    for (const deadline = Date.now() + 10_000; dashboardLoads < 2 && Date.now() < deadline; ) await sleep(100);
    t.ok(streams.length >= 2, `reconnected (${streams.length} connections)`);
    t.ok(streams[1]! - streams[0]! < 2000, `after the server's retry, not the 3 s default (${streams[1]! - streams[0]!} ms)`);
    t.equal(dashboardLoads, 2, 'the figures were fetched again once the stream was back');
  });

  t.test('a 401 on the stream ends the session like any other call', async (t) => {
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    const revoked = await context.newPage();
    await revoked.route('**/api/analytics/stream', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: '{"statusCode":401,"code":"UNAUTHORIZED","error":"Unauthorized","message":"No autorizado"}' }),
    );
    await revoked.goto('/analytics');
    await revoked.waitForURL('**/login');
    await revoked.locator('.toast-error', { hasText: 'Tu sesión ha expirado' }).waitFor();
    t.same(await revoked.evaluate(() => localStorage.getItem('token')), null, 'token cleared');
  });

  t.test('failing figures are never shown as zeros: the screen says they could not load, without a toast', async (t) => {
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    const failing = await context.newPage();
    const errors: string[] = [];
    failing.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await failing.route('**/api/analytics/**', (route) =>
      route.request().url().includes('/stream')
        ? route.continue()
        : route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"X","error":"X","message":"Fallo"}' }),
    );
    await failing.goto('/analytics');
    await failing.getByRole('alert').filter({ hasText: 'No se pudieron cargar los datos de analytics.' }).waitFor();
    t.equal(await failing.locator('.stat-card').count(), 0, 'no figures, so no zeros shown as true');
    t.equal(await failing.locator('.toast').count(), 0, 'no toast');
    t.ok(errors.some((e) => e.includes('No se pudo cargar analytics/')), 'the failures are logged to the console');
  });
});
