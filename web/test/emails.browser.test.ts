import t from 'tap';
import type { Page } from 'playwright-core';
import { startDovecot, type Dovecot } from '../../services/email/test/fixtures/dovecot.js';
import { eventually, otherMailApp, rawMail } from '../../services/email/test/fixtures/imap-peer.js';
import { startSmtpPeer, type SmtpPeer } from '../../services/email/test/fixtures/smtp-peer.js';
import { api, appAndBrowser, browserSuite, registerUser, SCREENS_DIR, screenshot, signedInContext, type Session } from './fixtures/harness.js';

const MAILBOX = 'laura@empresa.example';
const PASSWORD = 'clave-imap-de-prueba';
const LONG_BODY = 'Buenos días Laura, le escribo para pedir un presupuesto de cincuenta unidades del producto.';

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

browserSuite(t, () => {
  // Dovecot and the SMTP peer listen on loopback: allowed as an operator allows a LAN mail server.
  const stage = appAndBrowser(t, { ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' });
  let session: Session;
  let page: Page;
  let dovecot: Dovecot;
  let smtp: SmtpPeer;

  t.before(async () => {
    dovecot = await startDovecot({ users: [{ user: MAILBOX, password: PASSWORD }] });
    smtp = await startSmtpPeer({ users: { [MAILBOX]: PASSWORD } });
    const phone = await otherMailApp(dovecot.host, dovecot.port, MAILBOX, PASSWORD);
    try {
      await phone.append('INBOX', rawMail({ from: 'Pedro Gómez <pedro@cliente.example>', to: MAILBOX, subject: 'Presupuesto', body: LONG_BODY, messageId: '<presupuesto@cliente.example>' }));
      await phone.append(
        'INBOX',
        [
          'From: Marta <marta@cliente.example>',
          `To: ${MAILBOX}`,
          'Subject: Contrato firmado',
          `Date: ${new Date().toUTCString()}`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="b1"',
          '',
          '--b1',
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p>Adjunto el <b>contrato</b>.</p><script>parent.document.title="hackeado"</script>',
          '--b1',
          'Content-Type: application/pdf; name="contrato.pdf"',
          'Content-Disposition: attachment; filename="contrato.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          Buffer.from('%PDF-1.4 contrato').toString('base64'),
          '--b1--',
          '',
        ].join('\r\n'),
        ['\\Seen'],
      );
    } finally {
      await phone.logout().catch(() => {});
      phone.close();
    }
    session = await registerUser(stage.app);
    for (let i = 1; i <= 6; i += 1) {
      await api(stage.app, 'POST', 'emails/templates', { name: `Plantilla ${i}`, subject: `Asunto ${i} para {nombre_cliente}`, body: `Hola {nombre_cliente}, mensaje ${i}` }, session.token);
    }
    await api(stage.app, 'POST', 'contacts', { firstName: 'Pedro', lastName: 'Gómez', email: 'pedro@cliente.example' }, session.token);
    const context = await signedInContext(stage.browser, stage.app, session);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    t.comment(`capturas de pantalla en ${SCREENS_DIR}`);
  });
  t.teardown(async () => {
    await smtp?.close();
    await dovecot?.stop();
  });

  t.test('status cards; connecting an IMAP/SMTP account through the form with "probar conexión"', async (t) => {
    await page.goto('/emails');
    await page.getByRole('heading', { name: 'Correos', level: 1 }).waitFor();
    for (const name of ['Gmail', 'Outlook', 'IMAP/SMTP']) await page.getByRole('region', { name: `Cuenta ${name}` }).waitFor();
    // Nothing configured for Gmail on this server: the owner is told to ask the administrator, whose setting
    // names wait folded under "Para el administrador".
    const gmailCard = page.getByRole('region', { name: 'Cuenta Gmail' });
    const note = gmailCard.getByRole('alert').filter({ hasText: 'Gmail no está configurado en este servidor. Pide al administrador que configure la conexión con Gmail.' });
    await note.waitFor();
    t.notOk(await note.getByText('GOOGLE_CLIENT_ID').isVisible(), 'the setting names are folded away from the owner');
    await note.getByText('Para el administrador').click();
    await note.getByText('GOOGLE_CLIENT_ID').waitFor();
    await note.getByText('GOOGLE_CLIENT_SECRET').waitFor();
    t.ok(await page.getByRole('button', { name: 'Conectar Gmail' }).isDisabled());

    await page.getByRole('button', { name: 'Conectar IMAP/SMTP' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conectar cuenta IMAP/SMTP' });
    await dialog.getByLabel('Proveedor').selectOption({ label: 'Yahoo' });
    t.equal(await dialog.getByLabel('Servidor IMAP').inputValue(), 'imap.mail.yahoo.com', 'a preset fills the servers');
    await dialog.getByLabel('Proveedor').selectOption({ label: 'Otro (configuración manual)' });
    await dialog.getByLabel('Correo electrónico').fill(MAILBOX);
    await dialog.getByLabel('Contraseña').fill('equivocada');
    await dialog.getByLabel('Servidor IMAP').fill(dovecot.host);
    await dialog.getByLabel('Puerto IMAP').fill(String(dovecot.port));
    await dialog.getByLabel('SSL/TLS (IMAP)').uncheck();
    await dialog.getByLabel('Servidor SMTP').fill(smtp.host);
    await dialog.getByLabel('Puerto SMTP').fill(String(smtp.port));
    await dialog.getByLabel('SSL/TLS (SMTP)').uncheck();
    t.ok(await dialog.getByRole('button', { name: 'Guardar cuenta' }).isDisabled(), 'saving waits for a successful test');
    await dialog.getByRole('button', { name: 'Probar conexión' }).click();
    await dialog.getByText('No se pudo conectar al servidor IMAP: el servidor rechazó el usuario o la contraseña').waitFor();
    await dialog.getByLabel('Contraseña').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Probar conexión' }).click();
    await dialog.getByText('Conexión correcta con IMAP y SMTP').waitFor();
    await dialog.getByRole('button', { name: 'Guardar cuenta' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Cuenta IMAP/SMTP' }).getByText(MAILBOX).waitFor();
    await page.getByRole('region', { name: 'Cuenta IMAP/SMTP' }).getByText('Conectado', { exact: true }).waitFor();
  });

  t.test('folders, unread on inbox only, first 5 templates, list with 50-character previews, search', async (t) => {
    const list = page.getByRole('list', { name: 'Correos' });
    await eventually('the synced inbox', async () => (await list.getByRole('button').count()) === 2 || (await page.reload(), false), 30_000);
    const folders = page.getByRole('navigation', { name: 'Carpetas' });
    for (const name of ['Bandeja de entrada', 'Enviados', 'Borradores', 'Papelera']) await folders.getByRole('button', { name: new RegExp(name) }).waitFor();
    await folders.getByLabel('1 sin leer').waitFor();
    t.equal(await folders.locator('.mail-unread').count(), 1, 'the count shows on inbox only');
    const templates = page.locator('.mail-templates').getByRole('button', { name: /^Plantilla/ });
    t.same(await templates.allTextContents(), ['Plantilla 1', 'Plantilla 2', 'Plantilla 3', 'Plantilla 4', 'Plantilla 5']);
    await list.getByText(LONG_BODY.slice(0, 50), { exact: true }).waitFor();

    await page.getByPlaceholder('Buscar correos...').fill('contrato');
    await eventually('the search', async () => (await list.getByRole('button').count()) === 1);
    await list.getByText('Contrato firmado').waitFor();
    await page.getByPlaceholder('Buscar correos...').fill('');
    await eventually('the full list again', async () => (await list.getByRole('button').count()) === 2);
  });

  t.test('reading pane: sandboxed HTML, attachments downloadable; opening an unread mail marks it read', async (t) => {
    const list = page.getByRole('list', { name: 'Correos' });
    await list.getByRole('button', { name: /Contrato firmado/ }).click();
    const pane = page.getByRole('article', { name: 'Correo abierto' });
    await pane.getByRole('heading', { name: 'Contrato firmado' }).waitFor();
    await pane.getByText('Marta <marta@cliente.example>').waitFor();
    const frame = pane.locator('iframe.mail-frame');
    t.equal(await frame.getAttribute('sandbox'), 'allow-popups allow-popups-to-escape-sandbox', 'no scripts, no same origin');
    await page.frameLocator('iframe.mail-frame').getByText('contrato', { exact: true }).waitFor();
    t.notMatch(await frame.getAttribute('srcdoc'), /script/, 'the script was removed on the server');
    t.not(await page.title(), 'hackeado');
    await pane.getByText('contrato.pdf').waitFor();
    await pane.getByText('(17 B)').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), pane.getByRole('button', { name: /contrato\.pdf/ }).click()]);
    t.equal(download.suggestedFilename(), 'contrato.pdf');

    await list.getByRole('button', { name: /Presupuesto/ }).click();
    await pane.getByRole('heading', { name: 'Presupuesto' }).waitFor();
    await page.getByRole('navigation', { name: 'Carpetas' }).locator('.mail-unread').waitFor({ state: 'detached' });
    const stored = await api<{ data: { subject: string; isRead: boolean }[]; unread: number }>(stage.app, 'GET', 'emails', undefined, session.token);
    t.equal(stored.body.unread, 0, 'read on the server too');
  });

  t.test('Responder, Reenviar and Redactar Correo with a template send through SMTP', async (t) => {
    const pane = page.getByRole('article', { name: 'Correo abierto' });
    await pane.getByRole('button', { name: 'Responder' }).click();
    let dialog = page.getByRole('dialog', { name: 'Responder' });
    await dialog.getByText('Re: Presupuesto').waitFor();
    await dialog.getByLabel('Mensaje').fill('Le envío el presupuesto mañana.');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const reply = await smtp.waitFor(1);
    t.equal(reply.parsed.subject, 'Re: Presupuesto');
    t.equal(reply.parsed.inReplyTo, '<presupuesto@cliente.example>');

    await pane.getByRole('button', { name: 'Reenviar' }).click();
    dialog = page.getByRole('dialog', { name: 'Reenviar' });
    await dialog.getByLabel('Para').fill('socio@empresa.example');
    await dialog.getByLabel('Mensaje').fill('Para tu información');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });
    t.equal((await smtp.waitFor(2)).parsed.subject, 'Fwd: Presupuesto');

    await page.getByRole('button', { name: 'Redactar Correo' }).click();
    dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.getByText('El destinatario es requerido').waitFor();
    await dialog.getByText('El asunto es requerido').waitFor();
    await dialog.getByLabel('Para').fill('pedro@cliente.example');
    await dialog.getByLabel('Plantilla').selectOption({ label: 'Plantilla 2' });
    t.equal(await dialog.getByLabel('Asunto').inputValue(), 'Asunto 2 para {nombre_cliente}', 'the template as written: the server fills it');
    await dialog.getByRole('region', { name: 'Vista previa' }).getByText('Hola Pedro Gómez, mensaje 2').waitFor();
    t.notOk(await dialog.getByLabel('Seguimiento de aperturas y clics').isChecked(), 'tracking off unless the owner turns it on');
    await dialog.getByLabel('Seguimiento de aperturas y clics').check();
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sent = await smtp.waitFor(3);
    t.equal(sent.parsed.subject, 'Asunto 2 para Pedro Gómez');
    t.match(String(sent.parsed.html), '/api/emails/track/open/', 'tracked as asked for this mail');

    await page.getByRole('navigation', { name: 'Carpetas' }).getByRole('button', { name: /Enviados/ }).click();
    await page.getByRole('list', { name: 'Correos' }).getByText('Asunto 2 para Pedro Gómez').waitFor();
  });

  t.test('Guardar borrador, then Continuar borrador from Borradores and Enviar: the draft leaves Borradores', async (t) => {
    await page.getByRole('button', { name: 'Redactar Correo' }).click();
    let dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
    await dialog.getByLabel('Asunto').fill('Oferta sin terminar');
    await dialog.getByLabel('Mensaje').fill('Primer párrafo');
    await dialog.getByRole('button', { name: 'Guardar borrador' }).click();
    await page.getByText('Borrador guardado').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' }); // saved: nothing to discard

    await page.getByRole('navigation', { name: 'Carpetas' }).getByRole('button', { name: /Borradores/ }).click();
    const list = page.getByRole('list', { name: 'Correos' });
    await list.getByRole('button', { name: /Oferta sin terminar/ }).click();
    const pane = page.getByRole('article', { name: 'Correo abierto' });
    await pane.getByRole('button', { name: 'Continuar borrador' }).click();
    dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
    t.equal(await dialog.getByLabel('Mensaje').inputValue(), 'Primer párrafo', 'the draft as written');
    await dialog.getByLabel('Para').fill('pedro@cliente.example');
    await dialog.getByLabel('Mensaje').fill('Primer párrafo y el segundo');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sent = await smtp.waitFor(4);
    t.equal(sent.parsed.subject, 'Oferta sin terminar');
    await list.getByRole('button', { name: /Oferta sin terminar/ }).waitFor({ state: 'detached' });
    t.pass('no longer in Borradores');
  });

  t.test('Enviar pressed again after the answer was lost sends the mail once', async (t) => {
    // The first send reaches the server (the mail goes out), then its answer is lost on the way back.
    let lost = 0;
    await page.route('**/api/emails/send', async (route) => {
      await route.fetch();
      lost++;
      await route.abort('connectionreset');
    }, { times: 1 });
    await page.getByRole('button', { name: 'Redactar Correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redactar Correo' });
    await dialog.getByLabel('Para').fill('pedro@cliente.example');
    await dialog.getByLabel('Asunto').fill('Pedido confirmado');
    await dialog.getByLabel('Mensaje').fill('Su pedido sale mañana.');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await smtp.waitFor(5);
    await eventually('the lost answer', async () => lost === 1 && (await dialog.getByRole('button', { name: 'Enviar' }).isEnabled()));
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });
    t.equal(smtp.received.filter((mail) => mail.parsed.subject === 'Pedido confirmado').length, 1, 'the retry answered the first send, nothing sent again');
  });

  t.test('Eliminar moves the open mail to the Papelera', async (t) => {
    await page.getByRole('navigation', { name: 'Carpetas' }).getByRole('button', { name: /Bandeja de entrada/ }).click();
    const list = page.getByRole('list', { name: 'Correos' });
    await list.getByRole('button', { name: /Contrato firmado/ }).click();
    await page.getByRole('article', { name: 'Correo abierto' }).getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog', { name: 'Eliminar correo' }).getByRole('button', { name: 'Eliminar' }).click();
    await list.getByRole('button', { name: /Contrato firmado/ }).waitFor({ state: 'detached' });
    await page.getByRole('navigation', { name: 'Carpetas' }).getByRole('button', { name: /Papelera/ }).click();
    await list.getByRole('button', { name: /Contrato firmado/ }).waitFor();
    t.pass('in the trash');
  });

  t.test('usable at 360 px wide: list, then the open mail with Volver', async (t) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/emails');
    const list = page.getByRole('list', { name: 'Correos' });
    await list.getByRole('button', { name: /Presupuesto/ }).waitFor();
    t.ok(await fitsWidth(page), 'no horizontal scroll with the list');
    await screenshot(page, 'correos-360');
    await list.getByRole('button', { name: /Presupuesto/ }).click();
    const pane = page.getByRole('article', { name: 'Correo abierto' });
    await pane.getByRole('button', { name: 'Responder' }).waitFor();
    t.ok(await fitsWidth(page), 'no horizontal scroll with the open mail');
    await screenshot(page, 'correo-abierto-360');
    await pane.getByRole('button', { name: '← Volver' }).click();
    await list.waitFor();
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});
