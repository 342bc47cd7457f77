// The owner's Cloud API flow in Chromium against the built app and a Graph API peer: connect the official API with its three values, read the number's name and quality on the card, and answer a customer whose 24-hour window has closed with an approved template and its variables.
import t from 'tap';
import { CloudApiPeer, PEER_NUMBER } from '../../services/whatsapp/test/cloud-api-peer.js';
import { api, appAndBrowser, browserSuite, registerUser, screenshot, signedInPage } from './fixtures/harness.js';

const APP_SECRET = 'browser-cloud-app-secret-0123456789';
const CUSTOMER = '34655443322';

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const peer = await CloudApiPeer.start({ appSecret: APP_SECRET });
t.teardown(() => peer.close());

browserSuite(t, () => {
  const stage = appAndBrowser(t, { WHATSAPP_CLOUD_API_URL: peer.url, WHATSAPP_CLOUD_APP_SECRET: APP_SECRET, WHATSAPP_CLOUD_VERIFY_TOKEN: 'verificar' });

  t.test('connect the official API, see the number, and send a template to a customer whose window closed', async (t) => {
    const { app } = stage;
    // Meta posts its webhooks to the app over HTTP, signed, as it would from the internet.
    peer.postTo(async (body, headers) => (await fetch(`${app.url}/api/whatsapp/cloud/webhook`, { method: 'POST', body, headers })).status);
    const session = await registerUser(app);
    const page = await signedInPage(t, stage, session, { viewport: { width: 1280, height: 800 }, path: '/whatsapp', timeout: 20_000 });

    const card = page.getByRole('region', { name: 'API oficial de WhatsApp (Cloud API)' });
    await card.getByRole('button', { name: 'Usar la API oficial de WhatsApp' }).click();
    await card.getByLabel('Identificador del número de teléfono').fill(PEER_NUMBER.phoneNumberId);
    await card.getByLabel('Identificador de la cuenta de WhatsApp Business').fill(PEER_NUMBER.businessAccountId);
    await card.getByLabel('Token de acceso').fill(PEER_NUMBER.token);
    await card.getByRole('button', { name: 'Conectar API oficial' }).click();
    await card.getByText(`${PEER_NUMBER.verifiedName} · ${PEER_NUMBER.displayPhone}`).waitFor();
    await card.getByText('Alta (verde)').waitFor();
    t.pass('the card names the number and its quality');
    t.notOk(await page.getByText(PEER_NUMBER.token).count(), 'the token is not shown back');

    // The customer last wrote 25 hours ago: only a template may reach them now.
    const old = Math.floor(Date.now() / 1000) - 25 * 3600;
    t.equal((await peer.customerWrites({ from: CUSTOMER, name: 'Lucía Pérez', text: '¿Tenéis cita el martes?', timestamp: old })).status, 200, 'the old message delivered');
    const conversations = async () => (await api<{ data: unknown[] }>(app, 'GET', 'whatsapp/conversations', undefined, session.token)).body.data.length;
    await until(async () => (await conversations()) === 1, 'the conversation stored');

    await page.getByRole('tab', { name: 'Conversaciones' }).click();
    await page.locator('.wa-conversation', { hasText: 'Lucía Pérez' }).click();
    const picker = page.locator('form.wa-templates');
    await picker.getByText('Han pasado más de 24 horas').waitFor();
    t.pass('the closed window offers the templates as the chat opens');
    await picker.getByLabel('Plantilla').selectOption({ label: 'recordatorio_cita (es)' });
    await picker.getByLabel('Variable {{1}}').fill('Lucía');
    await picker.getByLabel('Variable {{2}}').fill('martes a las 10:00');
    await picker.getByText('Hola Lucía, te recordamos tu cita del martes a las 10:00.').waitFor();
    await picker.getByRole('button', { name: 'Enviar plantilla' }).click();

    await until(() => peer.received(CUSTOMER).length === 1, 'the template at the customer');
    t.match(peer.received(CUSTOMER)[0], { type: 'template', template: { name: 'recordatorio_cita', language: 'es', variables: ['Lucía', 'martes a las 10:00'] } }, 'the template with its variables');
    await page.getByRole('log', { name: 'Mensajes' }).getByText('Hola Lucía, te recordamos tu cita del martes a las 10:00.').waitFor();
    await picker.waitFor({ state: 'detached' });
    t.pass('the thread shows what the customer reads, and the picker closes');
    await screenshot(page, 'whatsapp-cloud-template-sent');
  });
});
