import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, signedInPage } from './fixtures/harness.js';

const VIEWPORTS = [
  { name: 'portatil', ...LAPTOP },
  { name: 'movil', ...PHONE },
];

const card = (page: Page) => page.getByRole('region', { name: 'Conservación de datos' });
const selected = (page: Page, label: string) => card(page).getByLabel(label).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent);

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  for (const viewport of VIEWPORTS) {
    t.test(`the owner chooses how long WhatsApp messages and mail bodies are kept in "Conservación de datos" (${viewport.width}×${viewport.height})`, async (t) => {
      const session = await registerUser(stage.app);
      const page = await signedInPage(t, stage, session, { viewport, path: '/settings', timeout: 10_000 });
      await card(page).scrollIntoViewIfNeeded();
      await card(page).getByText('Cada día se borra lo que sea más antiguo que el plazo elegido. Los totales de Analíticas no se borran.').waitFor();
      for (const label of ['Mensajes de WhatsApp', 'Contenido de los correos', 'Ejecuciones del asistente IA']) {
        t.equal(await selected(page, label), 'Para siempre', `${label}: forever by default`);
      }
      t.same(
        await card(page).getByLabel('Mensajes de WhatsApp').locator('option').allTextContents(),
        ['Para siempre', '30 días', '90 días', '180 días', '365 días'],
      );

      await card(page).getByLabel('Mensajes de WhatsApp').selectOption({ label: '30 días' });
      await card(page).getByLabel('Contenido de los correos').selectOption({ label: '365 días' });
      await card(page).getByRole('button', { name: 'Guardar' }).click();
      await page.locator('.toast', { hasText: 'Conservación de datos guardada' }).waitFor();
      const saved = await api(stage.app, 'GET', 'account/retention', undefined, session.token);
      t.same(saved.body, { whatsappDays: 30, emailBodyDays: 365, aiRunDays: null }, 'saved for the owner');

      // A value set outside the card (the API) is shown as it is, not as "Para siempre".
      await api(stage.app, 'PUT', 'account/retention', { whatsappDays: 30, emailBodyDays: 365, aiRunDays: 7 }, session.token);
      await page.reload();
      await card(page).getByLabel('Ejecuciones del asistente IA').waitFor();
      t.equal(await selected(page, 'Mensajes de WhatsApp'), '30 días', 'kept after a reload');
      t.equal(await selected(page, 'Contenido de los correos'), '365 días');
      t.equal(await selected(page, 'Ejecuciones del asistente IA'), '7 días');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      t.equal(overflow, 0, 'nothing wider than the screen');
    });
  }
});
