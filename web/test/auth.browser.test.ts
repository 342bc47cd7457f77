import t from 'tap';
import type { Page } from 'playwright-core';
import {
  api,
  appAndBrowser,
  browserSuite,
  guestContext,
  registerUser,
  SCREENS_DIR,
  screenshot,
  seriousA11yViolations,
  signedInContext,
  takesFocus,
  uniqueEmail,
} from './fixtures/harness.js';

const NAV_LABELS = [
  'Dashboard',
  'Contactos',
  'Calendario',
  'WhatsApp',
  'Conversaciones',
  'Correos',
  'Teams',
  'OpenAI',
  'Google Calendar',
  'Analytics',
  'Configuración',
];

const SCREENS: [path: string, heading: string][] = [
  ['/', 'Dashboard'],
  ['/contacts', 'Contactos'],
  ['/calendar', 'Calendario'],
  ['/whatsapp', 'WhatsApp Business'],
  ['/conversations', 'Conversaciones'],
  ['/emails', 'Correos'],
  ['/teams', 'Microsoft Teams'],
  ['/openai', 'OpenAI API Key'],
  ['/google-calendar', 'Google Calendar'],
  ['/analytics', 'Analytics'],
  ['/settings', 'Configuración'],
];

/** Holds the response of `path` until `release` is called, to observe the waiting state. */
async function holdRequest(page: Page, path: string): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/${path}`, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

const pathOf = (page: Page) => new URL(page.url()).pathname;
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });
const fieldError = (page: Page, text: string) => page.locator('.field-error', { hasText: text });

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.before(async () => {
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });

  async function guestPage(): Promise<Page> {
    const context = await guestContext(stage.browser, stage.app);
    context.setDefaultTimeout(10_000);
    t.teardown(() => context.close());
    return context.newPage();
  }

  async function signedInPage(fields: Parameters<typeof registerUser>[1] = {}) {
    const session = await registerUser(stage.app, fields);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(10_000);
    t.teardown(() => context.close());
    return { page: await context.newPage(), session };
  }

  t.test('login shows every validation message and toggles the password', async (t) => {
    const page = await guestPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await fieldError(page, 'El correo es requerido').waitFor();
    await fieldError(page, 'La contraseña es requerida').waitFor();
    t.ok(await takesFocus(page.getByLabel('Correo electrónico')), 'focus lands on the first field to fix');

    await page.getByLabel('Correo electrónico').fill('no-es-correo');
    await page.getByLabel('Contraseña', { exact: true }).fill('123');
    await fieldError(page, 'Correo electrónico inválido').waitFor();
    await fieldError(page, 'La contraseña debe tener al menos 6 caracteres').waitFor();

    const password = page.getByLabel('Contraseña', { exact: true });
    t.equal(await password.getAttribute('type'), 'password');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    t.equal(await password.getAttribute('type'), 'text', 'shown');
    await page.getByRole('button', { name: 'Ocultar contraseña' }).click();
    t.equal(await password.getAttribute('type'), 'password', 'hidden again');
    await screenshot(page, 'login-validacion');
  });

  t.test('register shows every validation message', async (t) => {
    const page = await guestPage();
    await page.goto('/register');
    await page.getByRole('button', { name: 'Crear Cuenta' }).click();
    for (const message of ['El nombre es requerido', 'El apellido es requerido', 'El correo es requerido', 'La contraseña es requerida', 'Confirma tu contraseña']) {
      await fieldError(page, message).waitFor();
    }
    await page.getByLabel('Nombre').fill('A');
    await page.getByLabel('Apellido').fill('B');
    await page.getByLabel('Correo electrónico').fill('x@y');
    await page.getByLabel('Contraseña', { exact: true }).fill('12345');
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill('54321');
    t.equal(await fieldError(page, 'Mínimo 2 caracteres').count(), 2, 'first and last name too short');
    await fieldError(page, 'Correo inválido').waitFor();
    await fieldError(page, 'Mínimo 6 caracteres').waitFor();
    await fieldError(page, 'Las contraseñas no coinciden').waitFor();
    for (const label of ['Mostrar contraseña', 'Mostrar confirmar contraseña']) {
      t.equal(await page.getByRole('button', { name: label }).count(), 1, `${label} toggle`);
    }
    await screenshot(page, 'registro-validacion');
  });

  t.test('register goes to the dashboard with real figures', async (t) => {
    const page = await guestPage();
    const email = uniqueEmail('nueva');
    await page.goto('/register');
    await page.getByLabel('Nombre').fill('Lucía');
    await page.getByLabel('Apellido').fill('Fernández');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Empresa (opcional)').fill('Panadería Sol');
    await page.getByLabel('Contraseña', { exact: true }).fill('Girasol-Azul-2026');
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill('Girasol-Azul-2026');
    const release = await holdRequest(page, 'auth/register');
    await page.getByRole('button', { name: 'Crear Cuenta' }).click();
    const waiting = page.getByRole('button', { name: 'Creando cuenta...' });
    await waiting.waitFor();
    t.ok(await waiting.isDisabled(), 'the button is disabled while waiting');
    release();
    await toast(page, '¡Cuenta creada!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    // A new account is welcomed, not "back" (issue 15, item 7).
    await page.getByText('Te damos la bienvenida, Lucía', { exact: true }).waitFor();
    const contacts = page.locator('.stat-card', { hasText: 'Contactos' });
    await contacts.locator('.stat-value', { hasText: '0' }).waitFor();
    for (const label of ['Eventos (30 días)', 'Mensajes (30 días)', 'Correos (30 días)']) {
      const value = await page.locator('.stat-card', { hasText: label }).locator('.stat-value').textContent();
      t.ok(value === '—' || value === '0', `${label} shows no invented figure (${value})`);
    }
    t.equal(await page.locator('.brand-sub').textContent(), 'Panadería Sol', 'company sub-label');
    await screenshot(page, 'dashboard');
    const violations = await seriousA11yViolations(page);
    t.same(violations, [], 'dashboard: no serious or critical accessibility findings');
  });

  t.test('register with a taken email shows the server message', async (t) => {
    const existing = await registerUser(stage.app);
    const page = await guestPage();
    await page.goto('/register');
    await page.getByLabel('Nombre').fill('Otra');
    await page.getByLabel('Apellido').fill('Persona');
    await page.getByLabel('Correo electrónico').fill(existing.user.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Girasol-Azul-2026');
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill('Girasol-Azul-2026');
    const answer = page.waitForResponse('**/api/auth/register');
    await page.getByRole('button', { name: 'Crear Cuenta' }).click();
    const response = await answer;
    t.equal(response.status(), 409);
    const { message } = (await response.json()) as { message: string };
    await page.locator('.toast-error', { hasText: message }).waitFor();
    t.equal(pathOf(page), '/register', 'stays on the form');
    t.ok(await page.getByRole('button', { name: 'Crear Cuenta' }).isEnabled(), 'the button is usable again');
  });

  t.test('a guest is sent to /login and, after login, back to where they were going', async (t) => {
    const { user, password } = await registerUser(stage.app);
    const page = await guestPage();
    await page.goto('/settings');
    await page.waitForURL('**/login');
    await page.getByLabel('Correo electrónico').fill(user.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('incorrecta1');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await page.locator('.toast-error', { hasText: 'Correo o contraseña incorrectos' }).waitFor();

    await page.getByLabel('Contraseña', { exact: true }).fill(password);
    const release = await holdRequest(page, 'auth/login');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    const waiting = page.getByRole('button', { name: 'Iniciando sesión...' });
    await waiting.waitFor();
    t.ok(await waiting.isDisabled(), 'the button is disabled while waiting');
    release();
    await toast(page, '¡Bienvenido!').waitFor();
    await page.waitForURL('**/settings');
    await page.getByRole('heading', { name: 'Configuración', level: 1 }).waitFor();
    t.pass('origin restored');
  });

  t.test('login and register are guest-only', async (t) => {
    const { page } = await signedInPage();
    for (const path of ['/login', '/register']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
      t.pass(`${path} sends a signed-in user to /`);
    }
  });

  t.test('the stored session is checked on start behind a loading screen', async (t) => {
    const { page, session } = await signedInPage();
    const release = await holdRequest(page, 'auth/me');
    await page.goto('/');
    await page.getByText('Cargando...').waitFor();
    t.pass('Cargando... while the profile loads');
    release();
    await page.getByText(`Te damos la bienvenida, ${session.user.firstName}`, { exact: true }).waitFor();
  });

  t.test('sidebar: brand, eleven entries in order, active entry, user', async (t) => {
    const { page, session } = await signedInPage({ firstName: 'Marta' });
    await page.goto('/');
    await page.locator('.brand-name', { hasText: 'Mi Asistente.IA' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    t.same(await nav.getByRole('link').allTextContents(), NAV_LABELS, 'labels in order');
    t.same(await nav.locator('[aria-current="page"]').allTextContents(), ['Dashboard'], 'Dashboard active');
    t.equal(await page.locator('.sidebar .avatar').textContent(), 'M', 'initial');
    t.equal(await page.locator('.user-name').textContent(), 'Marta');
    t.equal(await page.locator('.user-email').textContent(), session.user.email);

    for (const [index, [path, heading]] of SCREENS.entries()) {
      const label = NAV_LABELS[index]!;
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      t.same(await nav.locator('[aria-current="page"]').allTextContents(), [label], `${label} active on ${path}`);
      const text = (await page.locator('main').innerText()).trim();
      t.ok(text.length > 40, `${path} is not a blank page`);
      await screenshot(page, `pantalla${path === '/' ? '-dashboard' : path.replace('/', '-')}`);
    }
  });

  t.test('a screen whose code cannot load offers a reload instead of a blank page', async (t) => {
    const { page } = await signedInPage();
    await page.route('**/assets/SettingsPage-*.js', (route) => route.abort());
    await page.goto('/settings');
    await page.getByText('No se pudo cargar esta pantalla').waitFor();
    await page.getByRole('button', { name: 'Recargar' }).waitFor();
    t.equal(await page.locator('.sidebar').count(), 1, 'the layout stays');
  });

  t.test('unknown routes show the 404 page', async (t) => {
    const page = await guestPage();
    await page.goto('/no-existe');
    await page.getByRole('heading', { name: 'Página no encontrada' }).waitFor();
    await page.getByRole('link', { name: 'Volver al inicio' }).waitFor();
    await screenshot(page, '404');
    t.pass();
  });

  t.test('logout clears the session and lands on /login', async (t) => {
    const { page, session } = await signedInPage();
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await page.waitForURL('**/login');
    await toast(page, 'Sesión cerrada').waitFor();
    t.same(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')]), [null, null], 'storage cleared');
    // The revocation is sent in the background as the session ends: give it a moment to land.
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await api(stage.app, 'GET', 'auth/me', undefined, session.token)).status;
      if (status !== 401) await page.waitForTimeout(100);
    }
    t.equal(status, 401, 'the token was revoked on the server');
    await page.goto('/');
    await page.waitForURL('**/login');
    t.pass('protected pages are closed again');
  });

  t.test('a 401 from any call ends the session and sends the user to /login', async (t) => {
    const { page, session } = await signedInPage();
    await page.goto('/');
    // Not 'networkidle': the dashboard's live stream keeps a request open for as long as it is on screen.
    await page.locator('.stat-card', { hasText: 'Contactos' }).locator('.stat-value', { hasText: '0' }).waitFor();
    const revoked = await api(stage.app, 'POST', 'auth/logout', undefined, session.token);
    t.equal(revoked.status, 204, 'token revoked behind the app’s back');
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Contactos' }).click();
    await page.waitForURL('**/login');
    await page.locator('.toast-error', { hasText: 'Tu sesión ha expirado' }).waitFor();
    t.same(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')]), [null, null], 'storage cleared');

    await page.getByLabel('Correo electrónico').fill(session.user.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Girasol-Azul-2026');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await page.waitForURL('**/contacts');
    t.pass('back on the screen the 401 interrupted');
  });

  t.test('settings: profile, password and integrations', async (t) => {
    const { page, session } = await signedInPage({ company: 'Ferretería Luna' });
    await page.goto('/settings');
    const company = page.getByLabel('Empresa');
    t.equal(await company.inputValue(), 'Ferretería Luna');
    await company.fill('Ferretería Luna SL');
    await page.getByLabel('Teléfono').fill('+34 600 111 222');
    await page.getByRole('button', { name: 'Guardar Cambios' }).click();
    await toast(page, 'Perfil actualizado').waitFor();
    // The sidebar names the workspace (renamed in Equipo), not the person's company.
    t.equal(await page.locator('.brand-sub').textContent(), 'Ferretería Luna', 'the workspace keeps its name');
    const me = await api<{ user: { company: string; phone: string } }>(stage.app, 'GET', 'auth/me', undefined, session.token);
    t.same([me.body.user.company, me.body.user.phone], ['Ferretería Luna SL', '+34 600 111 222'], 'saved on the server');

    await page.getByLabel('Contraseña actual', { exact: true }).fill('equivocada');
    await page.getByLabel('Nueva contraseña', { exact: true }).fill('nuevaClave1');
    await page.getByLabel('Confirmar nueva contraseña', { exact: true }).fill('nuevaClave1');
    await page.getByRole('button', { name: 'Actualizar Contraseña' }).click();
    await page.locator('.toast-error', { hasText: 'La contraseña actual no es correcta' }).waitFor();
    t.equal(pathOf(page), '/settings', 'a wrong current password does not end the session');

    await page.getByLabel('Contraseña actual', { exact: true }).fill('Girasol-Azul-2026');
    await page.getByRole('button', { name: 'Actualizar Contraseña' }).click();
    await toast(page, 'Contraseña actualizada').waitFor();
    const login = await api(stage.app, 'POST', 'auth/login', { email: session.user.email, password: 'nuevaClave1' });
    t.equal(login.status, 200, 'the new password works');

    const integrations = page.locator('.integration');
    t.equal(await integrations.count(), 5, 'five integrations listed');
    await page.locator('.badge-checking').first().waitFor({ state: 'detached' });
    for (const name of await integrations.locator('.integration-name').allTextContents()) {
      const badge = await integrations.filter({ hasText: name }).locator('.badge').textContent();
      const expected = name === 'OpenAI' ? ['Faltante'] : ['Conectado', 'No conectado'];
      t.ok(expected.includes(badge ?? ''), `${name}: ${badge}`);
    }
    await screenshot(page, 'configuracion');
  });

  t.test('login page: keyboard reachable and accessible', async (t) => {
    const page = await guestPage();
    await page.goto('/login');
    await page.getByLabel('Correo electrónico').waitFor();
    const reached: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.getAttribute('aria-label') ?? el?.getAttribute('type') ?? el?.textContent ?? '';
      }));
    }
    for (const expected of ['email', 'password', 'Mostrar contraseña', 'submit', 'Regístrate']) {
      t.ok(reached.includes(expected), `Tab reaches ${expected}`);
    }
    await screenshot(page, 'login');
    t.same(await seriousA11yViolations(page), [], 'login: no serious or critical accessibility findings');
  });
});
