import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { GooglePeer } from '../../services/calendar/test/google-peer.js';
import { at, connectGoogleThroughApi, dayOfThisMonth } from './fixtures/calendar.js';
import { api, browserSuite, launchBrowser, registerUser, ROOT, signedInStorage, startApp, type RunningApp, type Session } from './fixtures/harness.js';
import { checkLayout, type LayoutFindings } from './fixtures/layout-check.js';

/**
 * Issue 27's "Done when": every screen at 360x740 and 1280x800, with data an owner would have (long names,
 * tags, a Google calendar called "Taller (principal)"), has no text drawn over other text, no control off
 * screen, no page scrolling sideways, no word broken that would fit, no field showing half its text.
 * Screenshots go to a temporary directory named in the output.
 */

const SIZES = [
  { label: 'móvil', width: 360, height: 740, mobile: true },
  { label: 'portátil', width: 1280, height: 800, mobile: false },
] as const;

/** Every screen without a parameter, read from the route table so a new screen is checked as soon as it exists. */
const ROUTES = [...readFileSync(join(ROOT, 'web/src/app/routes.ts'), 'utf8').matchAll(/route\('([^']+)'/g)]
  .map((m) => m[1]!)
  .filter((path) => !path.includes(':'));

/** The screens outside the signed-in area (login, register, password reset), read from the app's own Switch. */
const GUEST_ROUTES = [...readFileSync(join(ROOT, 'web/src/app/App.tsx'), 'utf8').matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]!);

const EMAIL = 'panaderia.sol@ejemplo.com';
const WHATSAPP_TABS = ['Conversaciones', 'Prompts IA', 'Estadísticas', 'Respuestas automáticas'];

/** Dialogs sit above the page (the page check leaves them out): the ones with fields and data an owner names, checked on their own. */
const DIALOGS: Record<string, { name: string; open: (page: Page) => Promise<void> }[]> = {
  '/calendar': [
    {
      name: 'Elegir calendario de Google',
      open: (page) => page.getByRole('region', { name: 'Google Calendar' }).getByRole('button', { name: 'Listar calendarios' }).click(),
    },
    { name: 'Nuevo Evento', open: (page) => page.getByRole('button', { name: 'Nuevo evento', exact: true }).click() },
  ],
  '/emails': [
    { name: 'Conectar cuenta IMAP/SMTP', open: (page) => page.getByRole('button', { name: 'Conectar IMAP/SMTP' }).click() },
    { name: 'Nueva plantilla', open: (page) => page.getByRole('button', { name: '+ Nueva plantilla' }).click() },
    { name: 'Redactar Correo', open: (page) => page.getByRole('button', { name: 'Redactar Correo' }).click() },
  ],
  '/contacts': [
    { name: 'Nuevo Contacto', open: (page) => page.getByRole('button', { name: 'Nuevo Contacto' }).click() },
    { name: 'Importar contactos', open: (page) => page.getByRole('button', { name: 'Importar', exact: true }).click() },
  ],
};

function context(browser: Browser, app: RunningApp, session: Session | null, size: (typeof SIZES)[number]): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: app.url,
    viewport: { width: size.width, height: size.height },
    locale: 'es-ES',
    hasTouch: size.mobile,
    isMobile: size.mobile,
    ...(session ? { storageState: signedInStorage(app, session) } : {}),
  });
}

/** The screen is drawn: its h1 is there, nothing is "Cargando..." and the fonts are in. */
async function settled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.page-loading') && !/Cargando/.test(document.querySelector('main')?.textContent ?? ''));
  await page.evaluate(() => document.fonts.ready);
}

/** On how many lines the element of `selector` whose text is `text` is drawn. */
function linesOf(page: Page, selector: string, text: string): Promise<number> {
  return page.evaluate(
    ([selector, text]) => {
      const el = Array.from(document.querySelectorAll(selector!)).find((e) => e.textContent?.trim() === text);
      if (!el) return 0;
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    },
    [selector, text],
  );
}

function assertClean(t: Test, findings: LayoutFindings, where: string): void {
  t.same(findings.pageScroll, [], `${where}: the page does not scroll sideways`);
  t.same(findings.controlsOutside, [], `${where}: every control within the screen`);
  t.same(findings.overlappingText, [], `${where}: no text over other text`);
  t.same(findings.brokenWords, [], `${where}: no word broken that would fit on a line`);
  t.same(findings.truncatedFields, [], `${where}: placeholders and chosen options shown whole`);
}

browserSuite(t, () => {
  let peer: GooglePeer;
  let app: RunningApp;
  let browser: Browser;
  let session: Session;
  let contactId: string;
  let shots: string;
  const screenshotTo = (page: Page, size: (typeof SIZES)[number], name: string) => page.screenshot({ path: join(shots, `${size.width}-${name}.png`), fullPage: true });

  t.before(async () => {
    shots = await mkdtemp(join(tmpdir(), 'pantallas-'));
    peer = await new GooglePeer().start();
    peer.addAccount(EMAIL, [{ id: 'taller@group.calendar.google.com', summary: 'Taller (principal)', backgroundColor: '#16a765', accessRole: 'owner' }]);
    for (const [i, title] of ['Entrega de pan a Hotel Miramar', 'Reunión con proveedor de harina', 'Revisión del horno'].entries()) {
      const day = dayOfThisMonth(10 + i);
      peer.putEvent(EMAIL, EMAIL, { id: `evento-${i}`, summary: title, start: { dateTime: at(day, 9 + i) }, end: { dateTime: at(day, 10 + i) } });
    }
    app = await startApp(peer.config());
    browser = await launchBrowser();
    session = await registerUser(app, { company: 'Panadería Sol de la Mañana' });
    await connectGoogleThroughApi(app, session.token);
    const people = [
      { firstName: 'María José', lastName: 'Fernández de la Fuente', email: 'maria.jose.fernandez.delafuente@distribuciones-ejemplo.com', phone: '+34 622 111 222', company: 'Taller (principal)', tags: ['cliente', 'proveedor', 'mayorista'] },
      { firstName: 'Raúl', lastName: 'Ibáñez', email: 'raul@ejemplo.com', phone: '+34 611 000 111', company: 'Hotel Miramar', tags: ['cliente'] },
      ...Array.from({ length: 12 }, (_, i) => ({ firstName: `Cliente ${i + 1}`, lastName: 'Gómez Ruiz', email: `cliente${i + 1}@ejemplo.com`, phone: `+34 600 000 ${100 + i}`, company: 'Cafetería Central', tags: ['cliente'] })),
    ];
    for (const person of people) {
      const created = await api<{ id: string }>(app, 'POST', 'contacts', person, session.token);
      if (created.status !== 201) throw new Error(`contacto no creado: ${created.status}`);
      contactId ??= created.body.id;
    }
    await api(app, 'POST', 'contacts/views', { name: 'Taller (principal)', tag: 'proveedor' }, session.token);
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
  });

  for (const size of SIZES) {
    t.test(`every screen at ${size.width}x${size.height}: no overlapping text, no control outside the screen`, async (t) => {
      const ctx = await context(browser, app, session, size);
      ctx.setDefaultTimeout(20_000);
      // tsx names the helper functions inside page.evaluate with its own __name(): give the page one.
      await ctx.addInitScript({ content: 'window.__name = (f) => f;' });
      t.teardown(() => ctx.close());
      const page = await ctx.newPage();
      const shot = (name: string) => screenshotTo(page, size, name);
      // Every route of the signed-in area, a contact's own page, and the page of an address that does not exist.
      const screens = [...ROUTES, `/contacts/${contactId}`, '/no-existe'];
      t.ok(screens.length >= 11, `screens: ${screens.join(' ')}`);
      for (const path of screens) {
        await t.test(path, async (t) => {
          await settled(page, path);
          await shot(path === '/' ? 'dashboard' : path.slice(1).replace(/\//g, '-'));
          if (path === '/whatsapp') {
            for (const tab of WHATSAPP_TABS) {
              await page.getByRole('tab', { name: tab }).click();
              await page.waitForFunction(() => !/Cargando/.test(document.querySelector('[role="tabpanel"]')?.textContent ?? ''));
              await shot(`whatsapp-${tab.toLowerCase().replace(/\s+/g, '-')}`);
              assertClean(t, await checkLayout(page), `${path} › ${tab}`);
            }
          } else {
            assertClean(t, await checkLayout(page), path);
          }
          if (path === '/google-calendar') {
            // What the owner saw: a calendar's name broken mid-word beside its "Principal" badge.
            for (const name of ['Taller (principal)', EMAIL]) t.equal(await linesOf(page, '.gcal-calendar-name', name), 1, `${path}: "${name}" on one line`);
          }
          for (const dialog of DIALOGS[path] ?? []) {
            await dialog.open(page);
            const shown = page.getByRole('dialog', { name: dialog.name });
            await shown.waitFor();
            await page.waitForFunction(() => !/Cargando/.test(document.querySelector('[role="dialog"]')?.textContent ?? ''));
            await shot(`${path.slice(1)}-${dialog.name.toLowerCase().replace(/[\s/]+/g, '-')}`);
            assertClean(t, await checkLayout(page, '[role="dialog"]'), `${path} › ${dialog.name}`);
            if (dialog.name === 'Elegir calendario de Google') {
              for (const name of ['Taller (principal)', EMAIL]) t.equal(await linesOf(page, '.cal-picker-name', name), 1, `${dialog.name}: "${name}" on one line`);
            }
            await page.keyboard.press('Escape');
            await shown.waitFor({ state: 'detached' });
          }
        });
      }
      t.comment(`capturas en ${shots}`);
    });

    t.test(`every screen outside the account at ${size.width}x${size.height}: the same checks`, async (t) => {
      const ctx = await context(browser, app, null, size);
      ctx.setDefaultTimeout(20_000);
      t.teardown(() => ctx.close());
      const page = await ctx.newPage();
      t.ok(GUEST_ROUTES.length >= 4, `screens: ${GUEST_ROUTES.join(' ')}`);
      for (const path of GUEST_ROUTES) {
        await t.test(path, async (t) => {
          // A reset link always carries its token; this one is checked only once the form is sent.
          await settled(page, path === '/restablecer' ? `${path}?token=enlace-de-prueba` : path);
          await screenshotTo(page, size, path.slice(1));
          assertClean(t, await checkLayout(page), path);
        });
      }
    });
  }
});
