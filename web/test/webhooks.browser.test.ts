import t from 'tap';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { Receiver } from '../../services/webhooks/test/receiver.js';
import { WEBHOOK_URL_RULE } from '@asistente/contracts';
import { api, appAndBrowser, browserSuite, LAPTOP, registerUser, screenshot, signedInPage } from './fixtures/harness.js';

const card = (page: Page) => page.getByRole('region', { name: 'Webhooks' });

browserSuite(t, () => {
  // The local receiver is on loopback: the operator allows it, as a self-hosted n8n on the same machine.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let receiver: Receiver;
  t.before(async () => {
    receiver = await Receiver.start();
  });
  t.teardown(() => receiver?.close());

  t.test('the owner adds a webhook, keeps the secret shown once, "Probar" delivers a signed test and the log shows it', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000 });
    await card(page).scrollIntoViewIfNeeded();
    await card(page).getByText('Todavía no tienes webhooks.').waitFor();

    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    await card(page).getByLabel('URL del receptor').fill('https://10.0.0.7/hook');
    await card(page).getByLabel('Contacto creado').check();
    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    await card(page).getByText('Ese servidor apunta a una dirección interna y no está permitido').waitFor();

    await card(page).getByLabel('URL del receptor').fill(receiver.url);
    await card(page).getByLabel('Descripción (opcional)').fill('Mi n8n');
    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    const secret = (await card(page).getByLabel('Secreto de firma').textContent()) ?? '';
    t.match(secret, /^whsec_/, 'the secret is shown');
    const item = card(page).getByRole('listitem', { name: `Webhook ${receiver.url}` });
    await item.getByText('Activo').waitFor();
    t.match(await item.textContent(), /Contacto creado/);

    await card(page).getByRole('button', { name: 'Ya lo he guardado' }).click();
    await page.reload();
    await item.waitFor();
    t.notOk((await page.content()).includes(secret.slice(6)), 'never shown again');

    const before = receiver.requests.length;
    await item.getByRole('button', { name: 'Probar' }).click();
    await page.locator('.toast', { hasText: 'Prueba entregada (204)' }).waitFor();
    const test = receiver.requests[before]!;
    t.match(new Webhook(secret).verify(test.body, test.headers as Record<string, string>), { type: 'webhook.test' }, 'signed with the secret shown');

    const row = item.locator('.webhook-delivery').first();
    await row.getByText('Entregado (204)').waitFor();
    t.match(await row.textContent(), /webhook\.test/);
    await row.getByText('Ver contenido').click();
    t.match(await row.locator('pre').textContent(), /Prueba de webhook de Mi Asistente\.IA/, 'the payload expands');

    // A contact created through the API reaches the receiver as contact.created, and the log lists it.
    const created = await api<{ id: string }>(stage.app, 'POST', 'contacts', { firstName: 'Lucía', lastName: 'Pérez', email: 'lucia@example.com' }, session.token);
    t.equal(created.status, 201);
    await receiver.received(before + 2);
    const hook = receiver.requests[before + 1]!;
    t.match(new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>), { type: 'contact.created', data: { contactId: created.body.id, hasEmail: true } });
    await row.getByText('Reenviar').waitFor();
    await item.getByRole('button', { name: 'Entregas' }).click();
    await item.getByRole('button', { name: 'Entregas' }).click();
    await item.locator('.webhook-delivery', { hasText: 'contact.created' }).waitFor();

    await item.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await card(page).getByText('Todavía no tienes webhooks.').waitFor();
  });

  t.test('"Solo identificadores" is a checkbox of the form; the log lists every attempt, a "Reenviar" adding one', async (t) => {
    const session = await registerUser(stage.app);
    const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: '/settings', timeout: 10_000 });
    await card(page).scrollIntoViewIfNeeded();
    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    await card(page).getByText(WEBHOOK_URL_RULE).waitFor();
    await card(page).getByLabel('URL del receptor').fill('ftp://example.com/hook');
    await card(page).getByLabel('Contacto creado').check();
    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    await card(page).getByRole('alert').getByText(`La URL no es válida. ${WEBHOOK_URL_RULE}`).waitFor();

    await card(page).getByLabel('URL del receptor').fill(receiver.url);
    const idsOnly = card(page).getByRole('checkbox', { name: 'Solo identificadores' });
    t.notOk(await idsOnly.isChecked(), 'off by default: payloads carry the fields');
    await idsOnly.check();
    await card(page).getByRole('button', { name: 'Añadir webhook' }).click();
    const secret = (await card(page).getByLabel('Secreto de firma').textContent()) ?? '';
    await card(page).getByRole('button', { name: 'Ya lo he guardado' }).click();
    const item = card(page).getByRole('listitem', { name: `Webhook ${receiver.url}` });
    await item.getByText('Solo identificadores').waitFor();

    const before = receiver.requests.length;
    const created = await api<{ id: string }>(stage.app, 'POST', 'contacts', { firstName: 'Lucía', lastName: 'Pérez', email: 'lucia@example.com' }, session.token);
    await receiver.received(before + 1);
    const hook = receiver.requests[before]!;
    t.same(new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>), {
      type: 'contact.created',
      timestamp: JSON.parse(hook.body).timestamp,
      data: { contactId: created.body.id, hasEmail: true },
    }, 'the ids alone');

    receiver.status = 500;
    await item.getByRole('button', { name: 'Probar' }).click();
    await page.locator('.toast', { hasText: '500' }).first().waitFor();
    receiver.status = 204;
    const row = item.locator('.webhook-delivery', { hasText: 'webhook.test' });
    await row.getByText('Fallido (500)').waitFor();
    await row.getByRole('button', { name: 'Reenviar' }).click();
    await row.getByText('Entregado (204)').waitFor();
    const attempts = row.getByRole('list', { name: 'Intentos' }).getByRole('listitem');
    t.same(
      (await attempts.allTextContents()).map((line) => line.replace(/ · [^·]+$/, '')),
      ['Intento 1 · 500', 'Intento 2 · 204'],
      'the failure stays beside the success',
    );
    t.match(await attempts.first().textContent(), /· (hace \d+ (segundos?|minutos?)|ahora)$/, 'when each was made');
    await screenshot(page, 'webhooks-attempts');

    await item.getByRole('button', { name: 'Editar' }).click();
    t.ok(await card(page).getByRole('checkbox', { name: 'Solo identificadores' }).isChecked(), 'the form shows the saved choice');
  });
});
