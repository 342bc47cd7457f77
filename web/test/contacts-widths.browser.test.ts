import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, signedInContext, type Session } from './fixtures/harness.js';

/**
 * Issue 27, point 3: on a laptop (1280x800) the contacts table was 841 px wide in a 706 px box, its Acciones
 * and tags off screen, and stayed scrolled right after a delete. At any width from 360 to 1920 px every row's
 * name and actions are on screen without scrolling sideways; columns give way by priority; on a phone rows
 * are cards.
 */

const LONG = {
  firstName: 'María José',
  lastName: 'Fernández de la Fuente',
  email: 'maria.jose.fernandez.delafuente@distribuciones-del-norte-ejemplo.com',
  phone: '+34 622 111 222',
  company: 'Distribuciones y Panaderías del Norte Sociedad Limitada',
  tags: ['cliente', 'proveedor', 'mayorista', 'pedido-semanal'],
};

interface RowView {
  name: string;
  /** The name link, the Editar and Eliminar buttons: within the viewport and not cut by a scrolling box. */
  outside: string[];
}

/** Every row's name and actions, measured where the owner sees them; and whether anything scrolls sideways. */
function measure(page: Page): Promise<{ rows: RowView[]; pageScroll: number; tableScroll: number; viewport: number; headers: string[]; cards: boolean }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const wrap = document.querySelector<HTMLElement>('.contacts-table-wrap')!;
    const clip = wrap.getBoundingClientRect();
    const inView = (el: Element | null) => {
      if (!el || !el.checkVisibility()) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.left >= Math.max(0, clip.left) - 0.5 && box.right <= Math.min(viewport, clip.right) + 0.5;
    };
    const rows = Array.from(document.querySelectorAll('table tbody tr')).map((row) => {
      const name = row.querySelector('a.contact-name')?.textContent?.trim() ?? '';
      const outside = [
        ['nombre', row.querySelector('a.contact-name')],
        ['Editar', row.querySelector('button[aria-label^="Editar"]')],
        ['Eliminar', row.querySelector('button[aria-label^="Eliminar"]')],
      ]
        .filter(([, el]) => !inView(el as Element | null))
        .map(([label]) => label as string);
      return { name, outside };
    });
    const headers = Array.from(document.querySelectorAll('table thead th'))
      .filter((th) => th.checkVisibility())
      .map((th) => th.textContent!.trim());
    const firstRow = document.querySelector('table tbody tr');
    return {
      rows,
      pageScroll: document.documentElement.scrollWidth - viewport,
      tableScroll: wrap.scrollWidth - wrap.clientWidth,
      viewport,
      headers,
      cards: firstRow ? getComputedStyle(firstRow).display === 'grid' : false,
    };
  });
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);
  let session: Session;

  t.before(async () => {
    session = await registerUser(stage.app, { company: 'Panadería Sol' });
    // The newest first: the long one heads the list.
    const people = [...Array.from({ length: 11 }, (_, i) => ({ firstName: `Cliente${i + 1}`, lastName: 'Gómez Ruiz', email: `cliente${i + 1}@ejemplo.com`, phone: `+34 600 000 ${100 + i}`, company: 'Cafetería Central', tags: ['cliente'] })), LONG];
    for (const person of people) {
      const created = await api(stage.app, 'POST', 'contacts', person, session.token);
      if (created.status !== 201) throw new Error(`seed: ${created.status} ${JSON.stringify(created.body)}`);
    }
  });

  async function open(width: number, height: number, mobile: boolean): Promise<Page> {
    // The harness's signed-in context, at this size; a phone also reports touch and a mobile viewport.
    const base = await signedInContext(stage.browser, stage.app, session);
    const storageState = await base.storageState();
    await base.close();
    const context = await stage.browser.newContext({ baseURL: stage.app.url, locale: 'es-ES', viewport: { width, height }, isMobile: mobile, hasTouch: mobile, storageState });
    t.teardown(() => context.close());
    context.setDefaultTimeout(15_000);
    // tsx names the helper functions inside page.evaluate with its own __name(): give the page one.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    const page = await context.newPage();
    await page.goto('/contacts');
    await page.locator('table tbody tr').first().waitFor();
    return page;
  }

  for (const size of [
    { ...LAPTOP, mobile: false },
    { ...PHONE, mobile: true },
  ]) {
    t.test(`${size.width}x${size.height}: every name and its Editar and Eliminar on screen, also after a delete`, async (t) => {
      const page = await open(size.width, size.height, size.mobile);
      const before = await measure(page);
      t.equal(before.rows.length, 10, 'a page of ten contacts');
      t.same(before.rows.filter((r) => r.outside.length > 0), [], 'no row with its name or actions off screen');
      t.equal(before.pageScroll, 0, 'the page does not scroll sideways');
      t.equal(before.tableScroll, 0, 'the table does not scroll sideways inside its box');
      if (size.width === 1280) {
        t.ok(before.headers.includes('Etiquetas') && before.headers.includes('Acciones'), `tags and actions shown on a laptop (${before.headers.join(', ')})`);
        t.notOk(before.cards, 'a table on a laptop');
        const cutPhones = await page.evaluate(() =>
          Array.from(document.querySelectorAll('td.col-phone'))
            .filter((td) => td.scrollWidth > td.clientWidth)
            .map((td) => `${td.textContent} ${td.scrollWidth}/${td.clientWidth}`),
        );
        t.same(cutPhones, [], 'every phone number shown whole');
      } else {
        t.ok(before.cards, 'on a phone each contact is a card');
        const card = page.locator('table tbody tr').filter({ hasText: 'María José' });
        t.match(await card.innerText(), /\+34 622 111 222/, 'the card shows the phone');
        t.match(await card.innerText(), /mayorista/, 'and the tags');
      }

      const victim = before.rows[1]!.name.replace(/^\S\s*/, '');
      await page.getByRole('button', { name: `Eliminar ${victim}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Eliminar' }).click();
      await page.locator('.toast', { hasText: 'Contacto eliminado' }).waitFor();
      await page.getByRole('link', { name: victim }).waitFor({ state: 'detached' });
      const after = await measure(page);
      t.same(after.rows.filter((r) => r.outside.length > 0), [], 'after the delete, every name and its actions still on screen');
      t.equal(after.pageScroll, 0, 'after the delete, no sideways scroll of the page');
      t.equal(after.tableScroll, 0, 'after the delete, none inside the table either');
      t.equal(await page.evaluate(() => document.querySelector('.contacts-table-wrap')!.scrollLeft), 0, 'the table is not left scrolled right');
    });
  }

  t.test('every width from 360 to 1920 px: names and actions on screen, columns give way by priority', async (t) => {
    const page = await open(1920, 900, false);
    const seen = new Map<string, number>();
    for (let width = 360; width <= 1920; width += 40) {
      await page.setViewportSize({ width, height: 900 });
      // The layout at the new width is drawn once the table's box has that width's size.
      await page.waitForFunction((w) => document.documentElement.clientWidth === w, width);
      const view = await measure(page);
      const bad = view.rows.filter((r) => r.outside.length > 0).map((r) => `${r.name}: ${r.outside.join(', ')}`);
      t.same(bad, [], `${width} px: every name and its actions on screen`);
      t.ok(view.pageScroll <= 0 && view.tableScroll <= 0, `${width} px: nothing scrolls sideways (page ${view.pageScroll}, table ${view.tableScroll})`);
      seen.set(view.cards ? 'tarjetas' : view.headers.join('|'), width);
    }
    const layouts = [...seen.keys()];
    t.ok(layouts.includes('tarjetas'), 'cards at phone widths');
    t.ok(layouts.some((l) => l.includes('Empresa') && l.includes('Etiquetas')), 'every column at the widest');
    // A column only goes when those of lower priority have gone: company, then tags, then email.
    for (const layout of layouts.filter((l) => l !== 'tarjetas')) {
      const has = (h: string) => layout.split('|').includes(h);
      t.ok(has('Nombre') && has('Teléfono') && has('Acciones'), `name, phone and actions always: ${layout}`);
      if (has('Empresa')) t.ok(has('Etiquetas') && has('Correo'), `company shown only with tags and email: ${layout}`);
      if (has('Etiquetas')) t.ok(has('Correo'), `tags shown only with email: ${layout}`);
    }
  });
});
