import t from 'tap';
import type { Page } from 'playwright-core';
import { startDovecot, type Dovecot } from '../../services/email/test/fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from '../../services/email/test/fixtures/imap-peer.js';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { api, appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInContext } from './fixtures/harness.js';
import { startImapGate } from './fixtures/imap-gate.js';
import { expectCleanLayout } from './fixtures/layout-check.js';

/**
 * Issue 27, mail: a bakery owner's first afternoon at both sizes. The first sync shows its progress and the
 * folders answer meanwhile; tracking is off until the owner turns it on; a template's variables are filled
 * on the server for each recipient (read back at a local SMTP peer), and an unfilled one asks first; a
 * contact's Actividad shows the owner's reply.
 */
const PASSWORD = 'clave-del-obrador';
const PEDIDOS = 120;
const SIZES = [
  { label: '1280×800', ...LAPTOP },
  { label: '360×740', ...PHONE },
] as const;
const mailboxOf = (width: number) => `obrador${width}@panaderia.example`;

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

browserSuite(t, () => {
  // Dovecot, the gate and the SMTP peer listen on loopback: allowed as an operator allows a LAN mail server.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let dovecot: Dovecot;
  let smtp: SmtpPeer;

  t.before(async () => {
    const users = SIZES.map((size) => ({ user: mailboxOf(size.width), password: PASSWORD }));
    dovecot = await startDovecot({ users });
    smtp = await startSmtpPeer({ users: Object.fromEntries(users.map((u) => [u.user, u.password])) });
    for (const { user } of users) {
      const phone = await otherMailApp(dovecot.host, dovecot.port, user, PASSWORD);
      try {
        const start = Date.now() - PEDIDOS * 60_000;
        for (let i = 1; i < PEDIDOS; i++) {
          await phone.append('INBOX', rawMail({ from: `Cliente ${i} <cliente${i}@correo.example>`, to: user, subject: `Pedido ${i}`, body: `Pedido número ${i}`, date: new Date(start + i * 60_000) }), ['\\Seen']);
        }
        await phone.append('INBOX', rawMail({ from: 'Raúl Ibáñez <raul@cliente.example>', to: user, subject: 'Encargo de tarta', body: '¿Tendréis la tarta el sábado?', messageId: `<tarta-${user}>` }));
      } finally {
        await phone.logout().catch(() => {});
        phone.close();
      }
    }
  });
  t.teardown(async () => {
    await smtp?.close();
    await dovecot?.stop();
  });

  for (const size of SIZES) {
    t.test(`at ${size.label}`, async (t) => {
      const mailbox = mailboxOf(size.width);
      const session = await registerUser(stage.app, { firstName: 'Carmen', lastName: 'Obrador', company: 'Panadería Obrador' });
      for (const contact of [
        { firstName: 'Raúl', lastName: 'Ibáñez', email: 'raul@cliente.example' },
        { firstName: 'María José', lastName: 'Sanz', email: 'mariajose@cliente.example' },
      ]) {
        await api(stage.app, 'POST', 'contacts', contact, session.token);
      }
      await api(stage.app, 'POST', 'emails/templates', { name: 'Bienvenida', subject: 'Hola {nombre_cliente}', body: 'Hola {nombre_cliente}, gracias por tu pedido.' }, session.token);
      const context = await signedInContext(stage.browser, stage.app, session);
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      t.teardown(() => context.close());
      const list = page.getByRole('list', { name: 'Correos' });
      const folders = page.getByRole('navigation', { name: 'Carpetas' });
      // The account's IMAP server for the whole afternoon: the gate only ever holds its first sync.
      const gate = await startImapGate({ host: dovecot.host, port: dovecot.port });
      t.teardown(() => gate.close());

      await t.test('the first sync shows its progress, the mails as they are stored, and the folders answer meanwhile', async (t) => {
        await page.goto('/emails');
        await page.getByRole('button', { name: 'Conectar IMAP/SMTP' }).click();
        const dialog = page.getByRole('dialog', { name: 'Conectar cuenta IMAP/SMTP' });
        await dialog.getByLabel('Proveedor').selectOption({ label: 'Otro (configuración manual)' });
        await dialog.getByLabel('Correo electrónico').fill(mailbox);
        await dialog.getByLabel('Contraseña').fill(PASSWORD);
        await dialog.getByLabel('Servidor IMAP').fill(gate.host);
        await dialog.getByLabel('Puerto IMAP').fill(String(gate.port));
        await dialog.getByLabel('SSL/TLS (IMAP)').uncheck();
        await dialog.getByLabel('Servidor SMTP').fill(smtp.host);
        await dialog.getByLabel('Puerto SMTP').fill(String(smtp.port));
        await dialog.getByLabel('SSL/TLS (SMTP)').uncheck();
        await dialog.getByRole('button', { name: 'Probar conexión' }).click();
        await dialog.getByText('Conexión correcta con IMAP y SMTP').waitFor();
        gate.arm();
        await dialog.getByRole('button', { name: 'Guardar cuenta' }).click();
        await dialog.waitFor({ state: 'detached' });
        // From the dialog closing to the end of the sync: is the empty-folder text ever on screen?
        // (A script as text: the test's bundler would add helpers the page does not have.)
        await page.evaluate(`(() => {
          const empty = () => document.body.innerText.includes('No hay correos en esta carpeta');
          window.seenEmpty = empty();
          new MutationObserver(() => { if (empty()) window.seenEmpty = true; })
            .observe(document.body, { subtree: true, childList: true, characterData: true });
        })()`);

        // The sync stopped after its first batch (the newest 50): that is what the owner sees meanwhile.
        await gate.holding();
        const status = page.getByRole('status').filter({ hasText: 'Sincronizando tu correo…' });
        await status.filter({ hasText: `Sincronizando tu correo… 50 de ${PEDIDOS}` }).waitFor();
        await list.getByRole('button', { name: /Encargo de tarta/ }).waitFor();
        t.equal(await list.getByRole('button').count(), 50, 'the newest mails first, listed as they are stored');
        await screenshot(page, `correos-sincronizando-${size.width}`);
        // The screen the every-screen check never reaches: an account, its tracking switch, the progress, the list.
        await expectCleanLayout(t, page, 'Correos while the first sync runs');

        // Another folder answers from what is stored, without waiting for the sync.
        const clicked = Date.now();
        await folders.getByRole('button', { name: /Enviados/ }).click();
        await page.getByRole('region', { name: 'Enviados' }).getByRole('status').filter({ hasText: `50 de ${PEDIDOS}` }).waitFor();
        t.comment(`Enviados answered in ${Date.now() - clicked} ms while the first sync was still running`);
        await folders.getByRole('button', { name: /Bandeja de entrada/ }).click();
        // A listed mail opens while the sync is still held.
        await list.getByRole('button', { name: /Encargo de tarta/ }).click();
        await page.getByRole('article', { name: 'Correo abierto' }).getByRole('heading', { name: 'Encargo de tarta' }).waitFor();
        t.ok(await fitsWidth(page), 'nothing off screen sideways');
        await expectCleanLayout(t, page, 'an open mail');
        // On a phone the open mail covers the list: back to it, where the progress is.
        if (size.width === 360) await page.getByRole('button', { name: '← Volver' }).click();

        gate.release();
        await status.waitFor({ state: 'detached', timeout: 60_000 });
        const stored = await api<{ pagination: { total: number } }>(stage.app, 'GET', 'emails', undefined, session.token);
        t.equal(stored.body.pagination.total, PEDIDOS, 'the whole window once the sync ended');
        t.equal(await page.evaluate('window.seenEmpty'), false, '"No hay correos en esta carpeta" never shown during the first sync');
      });

      await t.test('tracking is off until the owner turns it on for the account, explained; each mail can change it', async (t) => {
        const card = page.getByRole('region', { name: 'Cuenta IMAP/SMTP' });
        const accountSwitch = card.getByRole('switch', { name: 'Seguimiento de aperturas y clics' });
        t.notOk(await accountSwitch.isChecked(), 'off for a new account');
        await card.getByText(/normas europeas de privacidad/).waitFor();

        const before = smtp.received.length;
        await page.getByRole('button', { name: 'Redactar Correo' }).click();
        let dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
        t.notOk(await dialog.getByLabel('Seguimiento de aperturas y clics').isChecked(), 'the mail follows the account');
        await dialog.getByLabel('Para').fill('raul@cliente.example');
        await dialog.getByLabel('Asunto').fill('Pan del día');
        await dialog.getByLabel('Mensaje').fill('Mira https://panaderia.example/pan');
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        await dialog.waitFor({ state: 'detached' });
        t.notMatch(String((await smtp.waitFor(before + 1)).parsed.html), '/api/emails/track/', 'no pixel, no tracked link');

        await accountSwitch.check();
        await page.getByText('Seguimiento activado para esta cuenta').waitFor();
        await page.getByRole('button', { name: 'Redactar Correo' }).click();
        dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
        // The accounts reload after the switch: a dialog opened meanwhile follows them when they arrive.
        await dialog.getByRole('checkbox', { name: 'Seguimiento de aperturas y clics', checked: true }).waitFor();
        t.ok(await dialog.getByLabel('Seguimiento de aperturas y clics').isChecked(), 'now on by the account');
        await dialog.getByLabel('Para').fill('raul@cliente.example');
        await dialog.getByLabel('Asunto').fill('Oferta de la semana');
        await dialog.getByLabel('Mensaje').fill('Mira https://panaderia.example/oferta');
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        await dialog.waitFor({ state: 'detached' });
        t.match(String((await smtp.waitFor(before + 2)).parsed.html), '/api/emails/track/open/');
        await accountSwitch.uncheck();
        await page.getByText('Seguimiento desactivado para esta cuenta').waitFor();
      });

      await t.test('a template picked before the recipient: the preview follows the recipients, and each gets their own name', async (t) => {
        await page.getByRole('button', { name: 'Redactar Correo' }).click();
        const dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
        await dialog.getByLabel('Plantilla').selectOption({ label: 'Bienvenida' });
        t.equal(await dialog.getByLabel('Asunto').inputValue(), 'Hola {nombre_cliente}', 'the template as written: filled when sent');
        const preview = dialog.getByRole('region', { name: 'Vista previa' });
        await preview.getByText('Escribe un destinatario para ver cómo le llegará.', { exact: false }).waitFor();

        await dialog.getByLabel('Para').fill('raul@cliente.example');
        await preview.getByText('Vista previa para raul@cliente.example').waitFor();
        await preview.getByText('Hola Raúl Ibáñez, gracias por tu pedido.').waitFor();
        await dialog.getByLabel('Para').fill('mariajose@cliente.example');
        await preview.getByText('Hola María José Sanz, gracias por tu pedido.').waitFor();
        t.notOk(await preview.getByText(/Raúl/).isVisible(), "never the previous customer's name");
        await dialog.getByLabel('Para').fill('mariajose@cliente.example, raul@cliente.example');
        await preview.getByText('Se enviará un correo a cada destinatario, con sus propios datos.').waitFor();
        t.ok(await fitsWidth(page), 'the preview fits the screen');
        await screenshot(page, `redactar-plantilla-${size.width}`);
        await expectCleanLayout(t, page, 'Redactar with a template and its preview', '[role="dialog"]');

        const before = smtp.received.length;
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        await dialog.waitFor({ state: 'detached' });
        await smtp.waitFor(before + 2);
        const arrived = smtp.received.slice(before).map((m: ReceivedMail) => [m.envelope.to.join(','), m.parsed.subject, m.parsed.text?.trim()]);
        t.same(
          arrived.sort(),
          [
            ['mariajose@cliente.example', 'Hola María José Sanz', 'Hola María José Sanz, gracias por tu pedido.'],
            ['raul@cliente.example', 'Hola Raúl Ibáñez', 'Hola Raúl Ibáñez, gracias por tu pedido.'],
          ],
          'one mail each, with their own name',
        );
      });

      await t.test('a variable nothing fills: a Spanish warning naming it, nothing sent until the owner confirms', async (t) => {
        await page.getByRole('button', { name: 'Redactar Correo' }).click();
        const dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
        await dialog.getByLabel('Plantilla').selectOption({ label: 'Bienvenida' });
        await dialog.getByLabel('Para').fill('nuevo@desconocido.example');
        await dialog.getByRole('region', { name: 'Vista previa' }).getByText('Este destinatario no está en tus contactos.').waitFor();
        const before = smtp.received.length;
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        const warning = dialog.getByRole('alert').filter({ hasText: 'El correo tiene variables sin completar: {nombre_cliente}' });
        await warning.waitFor();
        t.equal(smtp.received.length, before, 'nothing sent');
        t.ok(await fitsWidth(page), 'the warning fits the screen');
        await screenshot(page, `redactar-variables-sin-completar-${size.width}`);
        await expectCleanLayout(t, page, 'Redactar warning of unfilled variables', '[role="dialog"]');
        await warning.getByRole('button', { name: 'Enviar de todos modos' }).click();
        await dialog.waitFor({ state: 'detached' });
        const sent = await smtp.waitFor(before + 1);
        t.equal(sent.parsed.subject, 'Hola {nombre_cliente}', 'sent as written, as confirmed');
      });

      await t.test("the contact's Actividad shows the mail they sent and the owner's reply", async (t) => {
        await list.getByRole('button', { name: /Encargo de tarta/ }).click();
        const pane = page.getByRole('article', { name: 'Correo abierto' });
        await pane.getByRole('button', { name: 'Responder' }).click();
        const dialog = page.getByRole('dialog', { name: 'Responder' });
        await dialog.getByLabel('Mensaje').fill('Sí, el sábado a las diez.');
        await dialog.getByRole('button', { name: 'Enviar' }).click();
        await dialog.waitFor({ state: 'detached' });
        // Filed in Enviados on the server and read back: the contact page asks for it there.
        await eventually('the reply in Enviados', async () => {
          const sent = await api<{ data: { subject: string }[] }>(stage.app, 'GET', 'emails?folder=sent&search=tarta', undefined, session.token);
          return sent.body.data.some((m) => m.subject === 'Re: Encargo de tarta');
        });

        const contacts = await api<{ contacts: { id: string }[] }>(stage.app, 'GET', 'contacts?search=raul', undefined, session.token);
        await page.goto(`/contacts/${contacts.body.contacts[0]!.id}`);
        const activity = page.locator('section', { has: page.getByRole('heading', { name: 'Actividad' }) });
        await activity.locator('.timeline-title', { hasText: /^Recibido · Encargo de tarta$/ }).waitFor();
        await activity.locator('.timeline-title', { hasText: /^Enviado · Re: Encargo de tarta$/ }).waitFor();
        t.pass("their mail as received, the owner's reply as sent");
        t.ok(await fitsWidth(page), 'nothing off screen sideways');
        await expectCleanLayout(t, page, "the contact's page with both mails in Actividad");
      });
    });
  }
});
