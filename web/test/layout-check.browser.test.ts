import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { browserSuite, launchBrowser } from './fixtures/harness.js';
import { checkLayout } from './fixtures/layout-check.js';

/**
 * The layout check itself: each fault it looks for, drawn on a small page, is found; the same page drawn
 * properly (and the layers and clipping it must leave alone) gives no finding.
 */

const BASE = `<style>
  body { margin: 0; font: 15px sans-serif; }
  .row { display: flex; gap: 8px; width: 220px; border: 1px solid; }
  .badge { white-space: nowrap; padding: 0 6px; }
  .scroller { overflow-x: auto; width: 200px; }
  .layer { position: fixed; top: 0; left: 0; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
</style>`;

async function render(page: Page, body: string) {
  await page.setContent(`<!doctype html><html lang="es"><head>${BASE}</head><body>${body}</body></html>`);
  return checkLayout(page);
}

browserSuite(t, () => {
  let browser: Browser;
  let page: Page;
  t.before(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    page = await context.newPage();
  });
  t.teardown(() => browser?.close());

  t.test('a clean page, a toast layered above it and text cut by its own box: nothing found', async (t) => {
    const found = await render(
      page,
      `<p>Taller (principal)</p>
       <div class="row"><span style="flex: 1 1 0; max-width: 100%; overflow-wrap: break-word">Taller (principal)</span><span class="badge">Principal</span></div>
       <p class="layer">Contacto eliminado</p>
       <div style="width: 80px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">Un texto muy largo que se corta</div>
       <span class="sr-only"><a href="#x">Saltar al contenido</a></span>
       <input placeholder="Buscar..." style="width: 200px"> <select style="width: 200px"><option>Todos los tipos</option></select>`,
    );
    t.same(found, { pageScroll: [], controlsOutside: [], overlappingText: [], brokenWords: [], truncatedFields: [] });
  });

  t.test('each fault is found', async (t) => {
    const wide = await render(page, '<div style="width: 500px">ancho</div><button style="margin-left: 380px">Acciones</button>');
    t.equal(wide.pageScroll.length, 1, 'a page wider than the screen');
    t.match(wide.controlsOutside.join(), /Acciones/, 'a button beyond the right edge');

    const scrolled = await render(page, '<div class="scroller"><table style="width: 400px"><tr><td>Ana</td><td style="text-align: right"><button>Eliminar</button></td></tr></table></div>');
    t.match(scrolled.controlsOutside.join(), /Eliminar/, 'a button reachable only by scrolling a box sideways');
    t.same(scrolled.pageScroll, [], 'although the page itself does not scroll');

    const over = await render(page, '<div style="position: relative; height: 40px"><span style="position: absolute; left: 0">Prompts IA</span><span style="position: absolute; left: 20px">Estadísticas</span></div>');
    t.equal(over.overlappingText.length, 1, 'two tabs drawn on top of each other');

    const broken = await render(page, '<div class="row"><span style="flex: 1; min-width: 0; overflow-wrap: anywhere">Taller (principal) de pan</span><span class="badge">Principal del negocio</span></div>');
    t.match(broken.brokenWords.join(), /principal|Taller/, 'a word broken beside a badge although the row has room for it');

    const cut = await render(page, '<input placeholder="Buscar por nombre, correo, teléfono o empresa..." style="width: 200px"><select style="width: 60px"><option>Todos los tipos</option></select>');
    t.equal(cut.truncatedFields.length, 2, 'a cut placeholder and a cut select');
  });
});
