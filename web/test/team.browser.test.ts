// A team grows from one owner in a real browser: Equipo's controls, an invitation link joined as a new person and as an existing one, and the switcher between workspaces.
import t from 'tap';
import type { Page } from 'playwright-core';
import type { WorkspaceInvitation } from '@asistente/contracts';
import { api, appAndBrowser, browserSuite, guestContext, LAPTOP, PHONE, registerUser, screenshot, signedInContext, uniqueEmail } from './fixtures/harness.js';
import { checkLayout } from './fixtures/layout-check.js';

const team = (page: Page) => page.getByRole('region', { name: 'Equipo' });
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).waitFor();

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.test('the owner renames the workspace and invites; the link makes a new person an agent of it', async (t) => {
    const owner = await registerUser(stage.app, { company: 'Panadería Sol' });
    const context = await signedInContext(stage.browser, stage.app, owner);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stage.app.url });
    context.setDefaultTimeout(10_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.setViewportSize(LAPTOP);
    await page.goto('/settings');

    const card = team(page);
    const name = card.getByLabel('Nombre del espacio de trabajo');
    await name.waitFor();
    t.equal(await name.inputValue(), 'Panadería Sol', 'the name it was founded with');
    await name.fill('  ');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await card.getByText('El nombre del espacio de trabajo es requerido').waitFor();
    await name.fill('Panadería Sol y Luna');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'Nombre guardado');
    t.equal((await api<{ name: string }>(stage.app, 'GET', 'workspace', undefined, owner.token)).body.name, 'Panadería Sol y Luna', 'renamed on the server');

    const members = card.getByRole('table', { name: 'Miembros del equipo' });
    const ownerRow = members.getByRole('row').filter({ hasText: owner.user.email });
    await ownerRow.waitFor();
    t.match(await ownerRow.textContent(), /Laura Martínez \(tú\).*Propietario/, 'the owner, in Spanish');
    t.equal(await ownerRow.getByRole('combobox').count(), 0, 'the owner row has no role select');
    t.equal(await ownerRow.getByRole('button').count(), 0, 'nor a remove button');

    const invited = uniqueEmail('ana');
    const invite = card.getByRole('form', { name: 'Invitar al equipo' });
    await invite.getByLabel('Correo electrónico').fill('no-es-un-correo');
    await invite.getByRole('button', { name: 'Invitar' }).click();
    await invite.getByText('Correo inválido').waitFor();
    t.same(await invite.getByLabel('Rol').locator('option').allTextContents(), ['Administrador', 'Agente']);
    await invite.getByLabel('Correo electrónico').fill(invited);
    await invite.getByRole('button', { name: 'Invitar' }).click();
    await toast(page, `Invitación creada para ${invited}`);
    const pending = card.getByRole('region', { name: 'Invitaciones pendientes' }).getByRole('listitem').filter({ hasText: invited });
    await pending.getByText(/^Agente · Caduca el \d{1,2} \w+\.? \d{4}$/).waitFor();

    await pending.getByRole('button', { name: 'Copiar enlace' }).click();
    await toast(page, 'Enlace copiado');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const listed = await api<WorkspaceInvitation[]>(stage.app, 'GET', 'workspace/invitations', undefined, owner.token);
    t.same(
      listed.body.map((i) => i.link),
      [link],
      'the link copied is the invitation’s',
    );
    t.match(link, new RegExp(`^${stage.app.url}/invitacion\\?token=.+`));

    await page.setViewportSize(PHONE);
    const phone = await checkLayout(page);
    t.same(Object.values(phone).flat(), [], 'Equipo with a member and an invitation is drawn cleanly on a phone');
    await screenshot(page, 'equipo-movil');
    await page.setViewportSize(LAPTOP);

    const guest = await guestContext(stage.browser, stage.app);
    guest.setDefaultTimeout(10_000);
    t.teardown(() => guest.close());
    const newcomer = await guest.newPage();
    await newcomer.goto(link);
    await newcomer.getByText('Te han invitado a Panadería Sol y Luna como agente.').waitFor();
    await newcomer.getByText('Te invita Laura Martínez.').waitFor();
    const form = newcomer.getByRole('form', { name: 'Crear tu cuenta' });
    t.equal(await form.getByLabel('Correo electrónico').inputValue(), invited, 'the invited address, not typed');
    await screenshot(newcomer, 'invitacion-cuenta-nueva');
    await form.getByRole('button', { name: 'Crear cuenta y unirme' }).click();
    await form.getByText('El nombre es requerido').waitFor();
    await form.getByLabel('Nombre').fill('Ana');
    await form.getByLabel('Apellido').fill('Gómez');
    await form.getByLabel('Contraseña', { exact: true }).fill('Girasol-Rojo-2026');
    await form.getByRole('button', { name: 'Crear cuenta y unirme' }).click();
    await newcomer.waitForURL((url) => url.pathname === '/');
    await newcomer.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // An agent of the owner's workspace: its name and members, and nothing to manage.
    await newcomer.goto('/settings');
    const agentView = team(newcomer);
    await agentView.getByText('Espacio de trabajo: Panadería Sol y Luna').waitFor();
    await agentView.getByRole('row').filter({ hasText: owner.user.email }).waitFor();
    t.match(await agentView.getByRole('row').filter({ hasText: invited }).textContent(), /Ana Gómez \(tú\).*Agente/);
    t.equal(await agentView.getByRole('textbox').count(), 0, 'no name field');
    t.equal(await agentView.getByRole('button').count(), 0, 'no button at all');
    t.equal(await agentView.getByRole('combobox').count(), 0, 'no role select');
    t.equal(await agentView.getByText('Invitaciones pendientes').count(), 0, 'no invitations');

    await page.reload();
    const anaRow = team(page).getByRole('row').filter({ hasText: invited });
    await anaRow.getByRole('combobox', { name: 'Rol de Ana Gómez' }).waitFor();
    await team(page).getByText('No hay invitaciones pendientes.').waitFor();
    t.match(await anaRow.textContent(), /hace|ahora/, 'her last activity');
    await screenshot(page, 'equipo-portatil');

    await anaRow.getByRole('button', { name: 'Quitar a Ana Gómez' }).click();
    const dialog = page.getByRole('dialog', { name: 'Quitar del equipo' });
    await dialog.getByText('¿Quitar a Ana Gómez del equipo? Dejará de tener acceso a este espacio de trabajo al momento.').waitFor();
    await dialog.getByRole('button', { name: 'Quitar' }).click();
    await toast(page, 'Ana Gómez ya no está en el equipo');
    await anaRow.waitFor({ state: 'detached' });
  });

  t.test('a person with an account signs in from the link, joins, and switches between their two workspaces', async (t) => {
    const owner = await registerUser(stage.app, { company: 'Taller Norte' });
    const carlos = await registerUser(stage.app, { firstName: 'Carlos', lastName: 'Ruiz', company: 'Carpintería Ruiz' });
    const invitation = await api<WorkspaceInvitation>(stage.app, 'POST', 'workspace/invitations', { email: carlos.user.email, role: 'admin' }, owner.token);
    t.equal(invitation.status, 201, 'invited');

    const context = await guestContext(stage.browser, stage.app);
    context.setDefaultTimeout(10_000);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto('/invitacion?token=no-existe');
    await page.getByRole('alert').getByText('La invitación no existe o ha caducado').waitFor();
    await page.goto(invitation.body.link);
    await page.getByText('Te han invitado a Taller Norte como administrador.').waitFor();
    await page.getByRole('link', { name: `Inicia sesión con ${carlos.user.email} para aceptar` }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Correo electrónico').fill(carlos.user.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(carlos.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();

    // Back at the invitation, signed in: one click joins.
    await page.waitForURL((url) => url.pathname === '/invitacion' && url.search === new URL(invitation.body.link).search);
    await page.getByRole('button', { name: 'Unirme a Taller Norte' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const switcher = page.getByLabel('Espacio de trabajo');
    await switcher.waitFor();
    t.same((await switcher.locator('option').allTextContents()).sort(), ['Carpintería Ruiz', 'Taller Norte'], 'both of his workspaces');
    t.equal(await switcher.locator('option:checked').textContent(), 'Taller Norte', 'acting in the one he joined');
    await screenshot(page, 'selector-espacio-de-trabajo');

    // Choosing one loads the app again: wait for the new document, then for its switcher.
    await Promise.all([page.waitForEvent('load'), switcher.selectOption({ label: 'Carpintería Ruiz' })]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    t.equal(await page.getByLabel('Espacio de trabajo').locator('option:checked').textContent(), 'Carpintería Ruiz', 'the switcher says where he is');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const now = await api<{ name: string; role: string }>(stage.app, 'GET', 'workspace', undefined, token ?? '');
    t.same([now.body.name, now.body.role], ['Carpintería Ruiz', 'owner'], 'the new session acts in his own workspace');
  });
});
