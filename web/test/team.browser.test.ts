// A team grows from one owner in a real browser: Equipo's controls, an invitation link joined as a new person and as an existing one, what an agent is offered across the app, and the switcher between workspaces.
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import type { InboxSettings, WorkspaceInvitation } from '@asistente/contracts';
import { api, appAndBrowser, browserSuite, guestContext, LAPTOP, PHONE, registerUser, screenshot, signedInPage, uniqueEmail } from './fixtures/harness.js';
import { checkLayout } from './fixtures/layout-check.js';

const team = (page: Page) => page.getByRole('region', { name: 'Equipo' });
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).waitFor();

const NOTE = 'Solo un administrador puede cambiar esto';

/** Configuración (already open): the owner's and the managers' cards are gone; what she may read is read-only; her own account is hers. */
async function settingsAsAgent(t: Test, page: Page) {
  const retention = page.getByRole('region', { name: 'Conservación de datos', exact: true });
  await retention.getByText(NOTE).waitFor();
  t.equal(await retention.getByRole('button').count(), 0, 'retention: no Guardar');
  t.ok(await retention.getByRole('combobox').first().isDisabled(), 'retention: the periods are shown, not changeable');
  const inbox = page.getByRole('region', { name: 'Bandeja compartida', exact: true });
  await inbox.getByText(NOTE).waitFor();
  t.equal(await inbox.getByRole('button').count(), 0, 'shared inbox: no Guardar');
  t.ok(await inbox.getByLabel('Asignar las conversaciones nuevas a').isDisabled(), 'shared inbox: the rule is shown, not changeable');
  // Every member may delete their own account: it leaves this workspace, which stays its owner's.
  const deletion = page.getByRole('region', { name: 'Eliminar mi cuenta', exact: true });
  await deletion.getByText('Los espacios de trabajo de otras personas a los que perteneces no se borran').waitFor();
  await deletion.getByRole('button', { name: 'Eliminar mi cuenta' }).waitFor();
  for (const card of ['Webhooks', 'Actividad de seguridad']) {
    t.equal(await page.getByRole('region', { name: card, exact: true }).count(), 0, `no ${card} card`);
  }
  // Her own data is hers to take: her profile, mail, calendars and actions, not the workspace's.
  const download = page.getByRole('region', { name: 'Descargar mis datos', exact: true });
  await download.getByText('Los contactos y los chats son del espacio de trabajo: los descarga su propietario.').waitFor();
  await download.getByRole('button', { name: 'Descargar mis datos' }).waitFor();
  const integrations = page.getByRole('region', { name: 'Integraciones', exact: true });
  await integrations.getByRole('link', { name: 'Ver WhatsApp Business' }).waitFor();
  await integrations.getByRole('link', { name: 'Ver OpenAI' }).waitFor();
  await integrations.getByRole('link', { name: 'Gestionar Correo' }).waitFor();
}

/** WhatsApp: the connection's state without its buttons, the assistant's settings and the keyword answers read-only. */
async function whatsAppAsAgent(t: Test, page: Page) {
  await page.goto('/whatsapp');
  const connection = page.getByRole('region', { name: 'Conexión', exact: true });
  await connection.locator('.badge', { hasText: 'Desconectado' }).waitFor();
  await connection.getByText('Solo un administrador puede conectar WhatsApp').waitFor();
  t.same(await connection.getByRole('button').allTextContents(), [], 'no Conectar, Actualizar QR nor Restablecer sesión');

  // Conversaciones is the screen's first tab: the assistant's settings are under «Prompts IA».
  await page.getByRole('tab', { name: 'Prompts IA' }).click();
  const assistant = page.getByRole('region', { name: 'Asistente IA', exact: true });
  await assistant.getByText(NOTE).waitFor();
  t.same(await assistant.getByRole('button').allTextContents(), ['Copiar prompt'], 'the prompt may be copied, not saved nor restored');
  t.ok(await assistant.getByLabel('Nombre del asistente').isDisabled(), 'the form is read-only');
  for (const card of ['Valores de las variables', 'Respuestas automáticas con IA']) {
    const region = page.getByRole('region', { name: card, exact: true });
    await region.getByText(NOTE).waitFor();
    t.equal(await region.getByRole('button').count(), 0, `${card}: no Guardar`);
  }
  await page.getByRole('region', { name: 'Probar asistente', exact: true }).getByRole('button').first().waitFor();

  await page.getByRole('tab', { name: 'Respuestas automáticas' }).click();
  const replies = page.getByRole('region', { name: 'Respuestas automáticas', exact: true });
  const reply = replies.getByRole('listitem').filter({ hasText: 'horario' });
  await reply.locator('.badge', { hasText: 'Activa' }).waitFor();
  await replies.getByText(NOTE).waitFor();
  t.equal(await replies.getByRole('button').count() + (await replies.getByRole('checkbox').count()), 0, 'no Nueva respuesta, switch nor delete');
}

/** OpenAI: the key's state, and nothing to save or remove. */
async function openAiAsAgent(t: Test, page: Page) {
  await page.goto('/openai');
  const status = page.getByRole('region', { name: 'Estado de la API key', exact: true });
  await status.getByText('API key guardada (••••WXYZ)', { exact: true }).waitFor();
  await status.getByText('Solo un administrador puede cambiar la API key').waitFor();
  t.equal(await page.getByRole('main').getByRole('button').count(), 0, 'no Eliminar API key, Guardar Key nor Limpiar');
  t.equal(await page.getByLabel('API key', { exact: true }).count(), 0, 'no key field');
}

/** Contactos: a selection offers no bulk delete; one contact at a time is still hers to delete, for good. */
async function contactsAsAgent(t: Test, page: Page) {
  await page.goto('/contacts');
  const row = page.getByRole('row').filter({ hasText: 'rosa.vidal@acme.com' });
  await row.getByRole('checkbox', { name: 'Seleccionar Rosa Vidal' }).check();
  const bar = page.locator('.bulk-bar');
  await bar.getByRole('button', { name: 'Etiquetar' }).waitFor();
  t.equal(await bar.getByRole('button', { name: 'Eliminar seleccionados' }).count(), 0, 'no bulk delete');
  await bar.getByRole('button', { name: 'Anular selección' }).click();

  await row.getByRole('button', { name: 'Eliminar Rosa Vidal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar contacto' });
  await dialog.getByText('¿Estás seguro de que quieres eliminar a Rosa Vidal? No se podrá deshacer.').waitFor();
  await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
  await toast(page, 'Contacto eliminado');
  await row.waitFor({ state: 'detached' });
}

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  t.test('the owner renames the workspace and invites; the link makes a new person an agent of it', async (t) => {
    const owner = await registerUser(stage.app, { company: 'Panadería Sol' });
    const page = await signedInPage(t, stage, owner, { viewport: LAPTOP, path: '/settings', timeout: 10_000, clipboard: true });

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
    await page.locator('.brand-sub', { hasText: 'Panadería Sol y Luna' }).waitFor();

    const inbox = page.getByRole('region', { name: 'Bandeja compartida', exact: true });
    const rule = inbox.getByLabel('Asignar las conversaciones nuevas a');
    t.same(await rule.locator('option').allTextContents(), ['Nadie', 'Por turnos', 'A quien tenga menos abiertas'], 'the assignment rules, in Spanish');
    await rule.selectOption({ label: 'Por turnos' });
    await inbox.getByLabel('Solo la persona asignada puede responder').check();
    await inbox.getByRole('button', { name: 'Guardar' }).click();
    await toast(page, 'Reglas de la bandeja guardadas');
    t.same(
      (await api<InboxSettings>(stage.app, 'GET', 'conversations/settings', undefined, owner.token)).body,
      { assignment: 'round_robin', onlyAssigneeSends: true },
      'the shared inbox’s rules saved',
    );

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
    // Her first steps are her own connections: the workspace's WhatsApp and OpenAI key are an admin's.
    const steps = newcomer.getByRole('region', { name: 'Primeros pasos' });
    await steps.getByRole('link', { name: /Conecta tu correo/ }).waitFor();
    t.equal(await steps.getByRole('link', { name: /Conecta WhatsApp|API key de OpenAI/ }).count(), 0, 'no step her role cannot take');

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
    t.equal(await newcomer.locator('.brand-sub').textContent(), 'Panadería Sol y Luna', 'her sidebar names the workspace she acts in');

    // The rest of the app as the agent: what the owner set up, shown, and no control the role table refuses her.
    await api(stage.app, 'PUT', 'ai/provider/openai/key', { apiKey: 'sk-proj-prueba-ABCDWXYZ' }, owner.token);
    await api(stage.app, 'POST', 'whatsapp/auto-replies', { keyword: 'horario', response: 'Abrimos de 8 a 20 h.', active: true }, owner.token);
    await api(stage.app, 'POST', 'contacts', { firstName: 'Rosa', lastName: 'Vidal', email: 'rosa.vidal@acme.com' }, owner.token);
    await settingsAsAgent(t, newcomer);
    await whatsAppAsAgent(t, newcomer);
    await openAiAsAgent(t, newcomer);
    await contactsAsAgent(t, newcomer);

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
