import t from 'tap';
import type { Page, Request } from 'playwright-core';
import {
  api,
  appAndBrowser,
  browserSuite,
  registerUser,
  SCREENS_DIR,
  screenshot,
  seriousA11yViolations,
  signedInContext,
  takesFocus,
  type Session,
} from './fixtures/harness.js';

const KEY_PATH = '**/api/ai/provider/openai/key';
const KEY = 'sk-prueba-0123456789abcdefWXYZ';

const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });
const statusCard = (page: Page) => page.getByRole('region', { name: 'Estado de la API key' });
const keyInput = (page: Page) => page.getByLabel('API key', { exact: true });

async function expectNoKey(page: Page): Promise<void> {
  await statusCard(page).getByText('Sin API key', { exact: true }).waitFor();
  await statusCard(page).locator('.badge-missing', { hasText: 'Faltante' }).waitFor();
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);
  let session: Session;
  let page: Page;

  t.before(async () => {
    session = await registerUser(stage.app);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });

  const storedKey = () => api<{ exists: boolean; last4: string | null }>(stage.app, 'GET', 'ai/provider/openai/key', undefined, session.token);

  t.test('no key yet: the form, its labels and its explanation', async (t) => {
    await page.goto('/openai');
    await page.getByRole('heading', { name: 'OpenAI API Key', level: 1 }).waitFor();
    await expectNoKey(page);
    t.equal(await statusCard(page).getByRole('button', { name: 'Eliminar API key' }).count(), 0, 'nothing to delete');
    t.equal(await keyInput(page).getAttribute('type'), 'password', 'the key is typed hidden');
    t.match(await keyInput(page).getAttribute('placeholder'), /^sk-/, 'placeholder starts with sk-');
    await page.getByText('cifrada con AES-256-GCM en el servidor y solo se muestran sus últimos 4 caracteres').waitFor();
    await page.getByRole('button', { name: 'Guardar Key' }).waitFor();
    await page.getByRole('button', { name: 'Limpiar' }).waitFor();
    t.same(await seriousA11yViolations(page), [], 'openai: no serious or critical accessibility findings');
  });

  t.test('an empty or blank key asks for one and sends nothing', async (t) => {
    const sent: string[] = [];
    const listen = (request: Request) => {
      if (request.url().includes('/api/ai/provider/openai/key') && request.method() !== 'GET') sent.push(request.method());
    };
    page.on('request', listen);
    await page.getByRole('button', { name: 'Guardar Key' }).click();
    await toast(page, 'Ingresa tu API key').waitFor();
    t.ok(await takesFocus(keyInput(page)), 'focus goes to the key field');
    await keyInput(page).fill('    ');
    await keyInput(page).press('Enter');
    // The same message again merges into the toast on screen, which counts it.
    await page.locator('.toast[data-count="2"]', { hasText: 'Ingresa tu API key' }).waitFor();
    t.equal(await toast(page, 'Ingresa tu API key').count(), 1, 'blank after trimming counts as empty, and the repeat merges');
    await page.waitForTimeout(300);
    page.off('request', listen);
    t.same(sent, [], 'no request was sent');
  });

  t.test('Limpiar empties the field', async (t) => {
    await keyInput(page).fill('sk-algo');
    await page.getByRole('button', { name: 'Limpiar' }).click();
    t.equal(await keyInput(page).inputValue(), '');
  });

  t.test('a key the server rejects shows the server’s reason', async (t) => {
    await keyInput(page).fill('clave-sin-prefijo');
    await page.getByRole('button', { name: 'Guardar Key' }).click();
    await page.locator('.toast-error', { hasText: 'La API key debe empezar por sk-' }).waitFor();
    t.match((await storedKey()).body, { exists: false, last4: null }, 'nothing stored');
    await expectNoKey(page);
  });

  t.test('saving shows the last four characters, clears the field and survives a reload', async (t) => {
    await keyInput(page).fill(`  ${KEY}  `);
    await page.getByRole('button', { name: 'Guardar Key' }).click();
    await toast(page, 'API key guardada').waitFor();
    await statusCard(page).getByText('API key guardada (••••WXYZ)', { exact: true }).waitFor();
    await statusCard(page).locator('.badge-connected', { hasText: 'Cargada' }).waitFor();
    t.equal(await keyInput(page).inputValue(), '', 'input cleared');
    t.match((await storedKey()).body, { exists: true, last4: 'WXYZ' }, 'stored on the server, trimmed');
    t.notOk((await page.content()).includes(KEY), 'the key itself is nowhere in the page');
    await page.reload();
    await statusCard(page).getByText('API key guardada (••••WXYZ)', { exact: true }).waitFor();
    await screenshot(page, 'openai');
    t.same(await seriousA11yViolations(page), [], 'openai with a key: no serious or critical accessibility findings');
  });

  t.test('settings shows the key as loaded, with a link to /openai', async (t) => {
    await page.goto('/settings');
    const openai = page.locator('.integration', { hasText: 'OpenAI' });
    await openai.locator('.badge', { hasText: 'Cargada (••••WXYZ)' }).waitFor();
    await openai.getByRole('link', { name: 'Gestionar OpenAI' }).click();
    await page.waitForURL('**/openai');
    t.pass();
  });

  t.test('deleting asks first, then shows Sin API key', async (t) => {
    await statusCard(page).getByRole('button', { name: 'Eliminar API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar API key' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    t.equal((await storedKey()).body.exists, true, 'Escape keeps the key');
    await statusCard(page).getByRole('button', { name: 'Eliminar API key' }).click();
    await screenshot(page, 'openai-eliminar');
    await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await toast(page, 'API key eliminada').waitFor();
    await expectNoKey(page);
    t.match((await storedKey()).body, { exists: false, last4: null }, 'deleted on the server');
    await page.goto('/settings');
    await page.locator('.integration', { hasText: 'OpenAI' }).locator('.badge-missing', { hasText: 'Faltante' }).waitFor();
  });

  t.test('failures: load, save (error or no success) and delete', async (t) => {
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(10_000);
    t.teardown(() => context.close());
    const failing = await context.newPage();
    let answer: { status: number; body: string } = { status: 500, body: '{"statusCode":500,"code":"X","error":"X","message":"Error interno"}' };
    // Every call to the key answers `answer`, whatever it is at the time.
    await failing.route(KEY_PATH, (route) => route.fulfill({ status: answer.status, contentType: 'application/json', body: answer.body }));
    await failing.goto('/openai');
    await toast(failing, 'No se pudo cargar el estado de la API key').waitFor();
    await expectNoKey(failing);

    await keyInput(failing).fill(KEY);
    await failing.getByRole('button', { name: 'Guardar Key' }).click();
    await toast(failing, 'No se pudo guardar la API key').waitFor();
    t.pass('a server error on save');

    answer = { status: 200, body: '{"success":false}' };
    await failing.getByRole('button', { name: 'Guardar Key' }).click();
    await failing.locator('.toast[data-count="2"]', { hasText: 'No se pudo guardar la API key' }).waitFor();
    await expectNoKey(failing);
    t.equal(await keyInput(failing).inputValue(), KEY, 'an unconfirmed save keeps what was typed');

    answer = { status: 200, body: '{"success":true,"last4":"WXYZ"}' };
    await failing.getByRole('button', { name: 'Guardar Key' }).click();
    await statusCard(failing).getByText('API key guardada (••••WXYZ)').waitFor();
    answer = { status: 500, body: '{"statusCode":500,"code":"X","error":"X","message":"Error interno"}' };
    await statusCard(failing).getByRole('button', { name: 'Eliminar API key' }).click();
    await failing.getByRole('dialog').getByRole('button', { name: 'Eliminar', exact: true }).click();
    await toast(failing, 'No se pudo eliminar la API key').waitFor();
    await statusCard(failing).getByText('API key guardada (••••WXYZ)').waitFor();
    t.pass('a failed delete keeps the key shown');
  });
});
