import t from 'tap';
import type { Page } from 'playwright-core';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInContext } from './fixtures/harness.js';

const card = (page: Page) => page.getByRole('region', { name: 'Eliminar mi cuenta' });
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.test('Configuración → "Eliminar mi cuenta": password, confirmation, progress per service, then the login page says so', async (t) => {
    const session = await registerUser(stage.app);
    const made = await api<{ id: string }>(stage.app, 'POST', 'contacts', { firstName: 'Marta', lastName: 'Ruiz' }, session.token);
    t.equal(made.status, 201);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto('/settings');

    const danger = card(page);
    await danger.getByText('Tus contactos, la papelera y las vistas guardadas.').waitFor();
    // The cards above load their data and grow: a click aimed while they do can land where the button was
    // (seen once under load: the refusal never showed). Act once none of them is still loading.
    await page.waitForFunction(() => ![...document.querySelectorAll('p')].some((p) => p.textContent === 'Cargando...'));
    t.equal(await overflow(page), 0, 'the card fits a phone');
    await page.setViewportSize(LAPTOP);

    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await danger.getByText('Escribe tu contraseña para eliminar la cuenta').waitFor();

    // A wrong password: confirmed, refused in Spanish under the field, nothing erased.
    await danger.getByLabel('Tu contraseña, para confirmar', { exact: true }).fill('no-es-esta');
    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Eliminar tu cuenta?' });
    await dialog.getByText(/No se puede deshacer/).waitFor();
    await dialog.getByRole('button', { name: 'Sí, eliminar mi cuenta' }).click();
    await danger.getByText('La contraseña no es correcta: no se ha borrado nada').waitFor();
    t.equal((await api(stage.app, 'GET', `contacts/${made.body.id}`, undefined, session.token)).status, 200, 'still there');

    // Cancelling the confirmation deletes nothing either.
    await danger.getByLabel('Tu contraseña, para confirmar', { exact: true }).fill(session.password);
    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    t.equal((await api(stage.app, 'GET', 'auth/me', undefined, session.token)).status, 200, 'cancelled: the session still works');

    await danger.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await dialog.getByRole('button', { name: 'Sí, eliminar mi cuenta' }).click();
    const progress = page.getByRole('list', { name: 'Progreso por servicio' });
    await progress.getByText('Contactos, papelera y vistas guardadas').waitFor();
    t.equal((await api(stage.app, 'GET', 'auth/me', undefined, session.token)).status, 401, 'the session ended at once');
    await screenshot(page, 'eliminar-cuenta-progreso');

    // Done everywhere: the session is gone and the login page says what happened.
    await page.waitForURL('**/login');
    await page.getByText('Tu cuenta y todos sus datos se han eliminado. Gracias por haber usado Mi Asistente.IA.').waitFor();
    t.equal(await page.evaluate(() => localStorage.getItem('token')), null, 'no token kept');
    await screenshot(page, 'eliminar-cuenta-hecho');
    t.equal((await api(stage.app, 'GET', `contacts/${made.body.id}`, undefined, session.token)).status, 401);
    const login = await api(stage.app, 'POST', 'auth/login', { email: session.user.email, password: session.password });
    t.equal(login.status, 401, 'the account cannot sign in again');
  });
});
