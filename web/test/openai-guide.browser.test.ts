import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, SCREENS_DIR, signedInPage, type Session } from './fixtures/harness.js';

const SIZES = [LAPTOP, PHONE] as const;

const guide = (page: Page) => page.getByRole('region', { name: '¿Qué es una API key y para qué sirve?' });

browserSuite(t, () => {
  const stage = appAndBrowser(t);
  let session: Session;

  t.before(async () => {
    session = await registerUser(stage.app);
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });

  async function openAiPage(t: Test, size: (typeof SIZES)[number]): Promise<Page> {
    const page = await signedInPage(t, stage, session, { viewport: size, path: '/openai', timeout: 30_000 });
    await guide(page).waitFor();
    return page;
  }

  for (const size of SIZES) {
    t.test(`at ${size.width}×${size.height} the OpenAI page explains the key, where to get it, its cost and its protection`, async (t) => {
      const page = await openAiPage(t, size);
      const card = guide(page);
      await card.getByText('Es una clave personal que da permiso a Mi Asistente.IA para usar la inteligencia artificial de OpenAI').waitFor();
      t.equal(await card.getByRole('link', { name: 'platform.openai.com' }).getAttribute('href'), 'https://platform.openai.com/api-keys');
      await card.getByText('Abre «API keys» y pulsa «Create new secret key».').waitFor();
      // The default assistant answers with gpt-4o-mini: 1,000 answers × (1,500 × 0.15 + 200 × 0.60) / 1e6 = 0.345 US$.
      await card.getByText('Con el modelo que usa tu asistente, gpt-4o-mini, unas 1000 respuestas automáticas al mes cuestan alrededor de 0,35 US$.').waitFor();
      await card.getByText('gpt-4o: ~5,75 US$ al mes').waitFor();
      await card.getByText('suponiendo 1000 respuestas al mes que leen unos 1500 tokens').waitFor();
      await card.getByText('Se guarda cifrada en el servidor y nunca se vuelve a mostrar entera').waitFor();
      t.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= size.width, 'no horizontal scroll');
      await screenshot(page, `openai-guia-${size.width}`);
    });
  }

  t.test('the estimate follows the model chosen in Prompts IA', async (t) => {
    const { body } = await api<{ data: Record<string, unknown> }>(stage.app, 'GET', 'ai/assistant', undefined, session.token);
    const saved = await api(stage.app, 'PUT', 'ai/assistant', { ...body.data, model: 'gpt-4.1-mini' }, session.token);
    t.equal(saved.status, 200);
    const page = await openAiPage(t, SIZES[0]);
    // 1,000 × (1,500 × 0.40 + 200 × 1.60) / 1e6 = 0.92 US$.
    await guide(page).getByText('Con el modelo que usa tu asistente, gpt-4.1-mini, unas 1000 respuestas automáticas al mes cuestan alrededor de 0,92 US$.').waitFor();
    await guide(page).getByText('gpt-4.1-mini: ~0,92 US$ al mes (el tuyo)').waitFor();
  });
});
