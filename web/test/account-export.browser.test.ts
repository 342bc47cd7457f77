import { readFile } from 'node:fs/promises';
import t from 'tap';
import type { Page } from 'playwright-core';
import { readZip } from '@asistente/kit/testing';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInPage } from './fixtures/harness.js';

const VIEWPORTS = [
  { name: 'portatil', ...LAPTOP },
  { name: 'movil', ...PHONE },
];

const card = (page: Page) => page.getByRole('region', { name: 'Descargar mis datos' });

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  for (const viewport of VIEWPORTS) {
    t.test(`the owner downloads a ZIP of their data from "Descargar mis datos" (${viewport.width}×${viewport.height})`, async (t) => {
      const session = await registerUser(stage.app);
      const created = await api(stage.app, 'POST', 'contacts', { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@ejemplo.es', tags: ['cliente'] }, session.token);
      t.equal(created.status, 201);
      const page = await signedInPage(t, stage, session, { viewport, path: '/settings', timeout: 15_000 });
      await card(page).scrollIntoViewIfNeeded();
      await card(page).getByText('Nunca incluye contraseñas, claves ni tokens.', { exact: false }).waitFor();

      await card(page).getByRole('button', { name: 'Descargar mis datos' }).click();
      const link = card(page).getByRole('link', { name: /^Descargar el ZIP/ });
      await link.waitFor();
      t.match(await card(page).textContent(), /disponible hasta el \d{1,2} \w+\.? \d{4}/, 'valid until an es-ES date, 24 hours on');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      t.equal(overflow, 0, 'nothing wider than the screen');
      await screenshot(page, `descargar-datos-${viewport.name}`);

      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      t.match(download.suggestedFilename(), /^mis-datos-\d{4}-\d{2}-\d{2}\.zip$/);
      const files = readZip(await readFile((await download.path())!));
      for (const name of ['cuenta/perfil.json', 'cuenta/actividad-de-seguridad.json', 'contactos/contactos.csv', 'contactos/contactos.json', 'calendario/eventos.ics', 'analitica/por-hora.csv']) {
        t.ok(files.has(name), `${name} in the ZIP`);
      }
      t.match(files.get('contactos/contactos.csv')!.toString('utf8'), 'Lucía,Gómez,lucia@ejemplo.es,,,cliente');
      t.match(JSON.parse(files.get('cuenta/perfil.json')!.toString('utf8')), { email: session.user.email });
      t.notOk(files.get('cuenta/perfil.json')!.toString('utf8').includes('Girasol-Azul-2026'), 'no password');
    });
  }
});
