import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  browserSuite,
  launchBrowser,
  PHONE,
  registerUser,
  ROOT,
  screenshot,
  seriousA11yViolations,
  signedInContext,
  signedInStorage,
  startApp,
  type RunningApp,
  type Session,
} from './fixtures/harness.js';

/** Every screen of the app, read from the route table itself so a new screen is checked as soon as it exists. */
const ROUTES = [...readFileSync(join(ROOT, 'web/src/app/routes.ts'), 'utf8').matchAll(/route\('([^']+)'/g)]
  .map((m) => m[1]!)
  // A route with a parameter (/contacts/:id) needs a record; the list screens cover its layout.
  .filter((path) => !path.includes(':'));

const TOUCH_MIN = 44;

function phoneContext(browser: Browser, app: RunningApp, session: Session): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: app.url,
    viewport: PHONE,
    locale: 'es-ES',
    hasTouch: true,
    isMobile: true,
    storageState: signedInStorage(app, session),
  });
}

/** The screen is drawn: its h1 is there and nothing is still "Cargando...". */
async function settled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.page-loading'));
}

/** Visible controls a finger must hit, smaller than 44 x 44 px (inline text links are exempt, as in WCAG). */
function smallTargets(page: Page, min: number): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = 'button, [role="button"], select, textarea, input:not([type="hidden"]), .nav-link, .btn, summary, main a:not(p a, li > a:only-child:not(.nav-link))';
    return Array.from(document.querySelectorAll<HTMLElement>(selector))
      .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        const isBox = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio');
        // A checkbox counts with its label when the label wraps it.
        const target = isBox && el.closest('label') ? el.closest('label')!.getBoundingClientRect() : box;
        return target.height < (isBox ? 24 : min) || target.width < (isBox ? 24 : min);
      })
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`);
  }, min);
}

/** The focused element's ring: its width and its WCAG contrast against the colour painted behind it. */
function focusRing(page: Page): Promise<{ label: string; ratio: number; width: number } | null> {
  return page.evaluate(() => {
    const parse = (css: string): number[] => {
      const m = css.match(/rgba?\(([^)]+)\)/);
      const parts = m ? m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number) : [0, 0, 0];
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const opaque = (node: Element): number[] | null => {
      const bg = parse(getComputedStyle(node).backgroundColor);
      return bg[3]! > 0.5 ? bg : null;
    };
    /** What is painted where the ring is drawn: just outside the element's box, beside it. */
    const backdrop = (el: HTMLElement, gap: number): number[] => {
      const box = el.getBoundingClientRect();
      const x = box.left - gap >= 0 ? box.left - gap : box.right + gap;
      for (const node of document.elementsFromPoint(x, box.top + box.height / 2)) {
        if (el.contains(node)) continue;
        const bg = opaque(node);
        if (bg) return bg;
      }
      return [255, 255, 255, 1];
    };
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const offset = parseFloat(style.outlineOffset) || 0;
    const l1 = luminance(parse(style.outlineColor));
    const l2 = luminance(backdrop(el, Math.max(offset, 0) + 1));
    return {
      label: `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 25)}"`,
      ratio: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05),
      width: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
    };
  });
}

browserSuite(t, () => {
  let app: RunningApp;
  let browser: Browser;
  let session: Session;

  t.before(async () => {
    app = await startApp();
    browser = await launchBrowser();
    session = await registerUser(app, { company: 'Panadería Sol' });
  });
  t.teardown(async () => {
    await browser?.close();
    await app?.stop();
  });

  t.test(`every screen at ${PHONE.width}x${PHONE.height}: no page scroll sideways, 44 px targets, no serious axe finding`, async (t) => {
    const context = await phoneContext(browser, app, session);
    context.setDefaultTimeout(20_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    t.ok(ROUTES.length >= 10, `routes read from routes.ts: ${ROUTES.join(' ')}`);
    for (const path of ROUTES) {
      await t.test(path, async (t) => {
        await settled(page, path);
        // Measured against the device width: a mobile browser widens its layout viewport to fit wide content.
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        t.ok(scrollWidth <= PHONE.width, `${path}: no horizontal scroll of the page (${scrollWidth} <= ${PHONE.width})`);
        t.notOk(await page.locator('#menu-lateral').isVisible(), `${path}: the sidebar is closed behind the menu button`);
        t.same(await smallTargets(page, TOUCH_MIN), [], `${path}: every control at least ${TOUCH_MIN} px`);
        t.same(await seriousA11yViolations(page), [], `${path}: no serious or critical accessibility findings at phone size`);
        await screenshot(page, `movil${path === '/' ? '-dashboard' : path.replace(/\//g, '-')}`);
      });
    }
  });

  t.test('phone: the menu button opens a drawer that closes on Escape, outside and after going somewhere', async (t) => {
    const context = await phoneContext(browser, app, session);
    context.setDefaultTimeout(20_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await settled(page, '/');
    const open = page.getByRole('button', { name: 'Abrir menú' });
    t.equal(await open.getAttribute('aria-expanded'), 'false');
    await open.click();
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    await nav.waitFor();
    t.equal(await page.getByRole('button', { name: 'Cerrar menú' }).getAttribute('aria-expanded'), 'true');
    t.ok(await nav.evaluate((el) => el.contains(document.activeElement)), 'focus moves into the drawer');
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    t.ok(await open.evaluate((el) => el === document.activeElement), 'Escape closes it and focus returns to the menu button');
    await open.click();
    await page.mouse.click(PHONE.width - 10, PHONE.height / 2);
    await nav.waitFor({ state: 'hidden' });
    t.pass('a tap outside closes it');
    await open.click();
    await nav.getByRole('link', { name: 'Configuración' }).click();
    await page.waitForURL('**/settings');
    await nav.waitFor({ state: 'hidden' });
    t.pass('going somewhere closes it');
    await settled(page, '/openai');
    await page.getByLabel('API key', { exact: true }).fill('sk-prueba-0123456789abcdefWXYZ');
    await page.getByRole('button', { name: 'Guardar Key' }).click();
    await page.getByRole('button', { name: 'Eliminar API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar API key' });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    t.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width && box.y >= 0 && box.y + box.height <= PHONE.height, 'the dialog fits the screen');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  t.test('desktop: every screen passes axe and shows a focus ring of at least 3:1 on what Tab reaches', async (t) => {
    const context = await signedInContext(browser, app, session);
    context.setDefaultTimeout(20_000);
    t.teardown(() => context.close());
    // tsx names the helper functions inside page.evaluate with its own __name(): give the page one.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    const page = await context.newPage();
    for (const path of ROUTES) {
      await settled(page, path);
      t.same(await seriousA11yViolations(page), [], `${path}: no serious or critical accessibility findings`);
    }
    await settled(page, '/openai');
    const weak: string[] = [];
    let reached = 0;
    // Skip link, the sidebar (dark), then the page (light): rings on both backgrounds.
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      const ring = await focusRing(page);
      if (!ring) continue;
      reached += 1;
      if (ring.width < 2 || ring.ratio < 3) weak.push(`${ring.label}: ${ring.width}px ${ring.ratio.toFixed(2)}:1`);
    }
    t.ok(reached >= 14, `Tab reached ${reached} elements`);
    t.same(weak, [], 'every focus ring is at least 2 px and 3:1 against its background');
  });
});
