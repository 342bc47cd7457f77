// The team inbox (Conversaciones) end to end in a browser: a customer's WhatsApp message becomes a conversation that is answered, answered-meanwhile (409), noted, assigned, resolved and counted in the tab title; two members on one conversation (a customer already a contact, linked) see each other viewing and typing, and each other's reply, assignment and @mention live (with the browser's notices); and the inbox walked list → thread (older entries loaded, the assistant's suggestion taken into the reply) → back at 360 px.
import t from 'tap';
import type { Page, Request } from 'playwright-core';
import type { InboxList } from '@asistente/contracts';
import {
  api,
  appAndBrowser,
  browserSuite,
  fakePhoneEnv,
  freePort,
  LAPTOP,
  PHONE,
  registerUser,
  seriousA11yViolations,
  signedInPage,
  uniqueEmail,
  type Session,
} from './fixtures/harness.js';
import { expectCleanLayout } from './fixtures/layout-check.js';
import { INBOX_FALLBACK_POLL_MS } from '../src/features/conversations/refresh-interval.js';

const ROSA = '34611222333@s.whatsapp.net';
const PEDRO = '34622333444@s.whatsapp.net';
const MARTA = '34633444555@s.whatsapp.net';
const TITLE = 'Conversaciones · Mi Asistente.IA';

const control = `http://127.0.0.1:${await freePort()}`;
const phone = async <T>(path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${control}${path}`, { method: body === undefined ? 'GET' : 'POST', body: body === undefined ? null : JSON.stringify(body) });
  return (await response.json()) as T;
};

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).first().waitFor();
const title = (page: Page, expected: string) => page.waitForFunction((expected) => document.title === expected, expected);
const tab = (page: Page, name: string, count: number) => page.getByRole('tab', { name: `${name} ${count}`, exact: true });
/** A read of one thread (which tells the server what the member has seen of it). */
const THREAD_READ = /\/api\/conversations\/[0-9a-f-]{36}$/;
/** How many thread reads the page has on their way to the server (issued, not yet answered). */
function threadReads(page: Page): () => number {
  const pending = new Set<Request>();
  page.on('request', (request) => {
    if (request.method() === 'GET' && THREAD_READ.test(request.url())) pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return () => pending.size;
}
/** The screen's live stream is connected: from here on a change reaches it without any poll. */
const live = (page: Page) => page.locator('.inbox-page[data-live="on"]').waitFor();

interface ShownNotice {
  title: string;
  body: string;
}
/** The browser's notifications, recorded (a headless browser shows none, nor asks anyone for permission). */
function recordNotices() {
  const shown: ShownNotice[] = [];
  class RecordedNotification {
    static permission: NotificationPermission = 'default';
    static requestPermission = async () => (RecordedNotification.permission = 'granted');
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body ?? '' });
    }
    close() {}
  }
  Object.assign(window, { Notification: RecordedNotification, shownNotices: shown });
}
const notices = (page: Page) => page.evaluate(() => (window as unknown as { shownNotices: ShownNotice[] }).shownNotices.map((n) => n.title));
const noticed = (page: Page, title: string) =>
  page.waitForFunction((title) => (window as unknown as { shownNotices: ShownNotice[] }).shownNotices.some((n) => n.title === title), title);

browserSuite(t, () => {
  const stage = appAndBrowser(t, fakePhoneEnv(Number(new URL(control).port)));
  let owner: Session;
  /** A second member of the owner's workspace. */
  let luis: Session;
  /** What the inbox lists (read through the list, which marks nothing read or seen). */
  const listed = async () => (await api<InboxList>(stage.app, 'GET', 'conversations?status=any', undefined, owner.token)).body.data;

  t.before(async () => {
    owner = await registerUser(stage.app, { firstName: 'Laura', lastName: 'Martínez' });
    const invited = await api<{ link: string }>(stage.app, 'POST', 'workspace/invitations', { email: uniqueEmail('luis'), role: 'agent' }, owner.token);
    const token = new URL(invited.body.link).searchParams.get('token');
    luis = (await api<Session>(stage.app, 'POST', 'auth/invitations/accept', { token, firstName: 'Luis', lastName: 'Pérez', password: 'Girasol-Azul-2026' })).body;
    await api(stage.app, 'POST', 'whatsapp/connect', {}, owner.token);
    await phone('/scan', {});
    await until(async () => (await api<{ state: string }>(stage.app, 'GET', 'whatsapp/status', undefined, owner.token)).body.state === 'connected', 'WhatsApp linked');
    await api(stage.app, 'POST', 'whatsapp/auto-replies', { keyword: 'horario', response: 'Abrimos de 8 a 20 h.', active: true }, owner.token);
    await phone('/message', { from: ROSA, text: 'Hola, ¿tenéis pan sin gluten?', name: 'Rosa Pérez' });
    await until(async () => (await listed()).length === 1, 'the conversation in the inbox');
  });

  t.test(`at ${LAPTOP.width} px: open, reply, a colleague's answer meanwhile, a private note, assign to me, resolve`, async (t) => {
    const page = await signedInPage(t, stage, owner, { viewport: LAPTOP, path: '/conversations', timeout: 10_000 });
    const readsUnderWay = threadReads(page);

    const rosa = page.locator('.inbox-item', { hasText: 'Rosa Pérez' });
    await rosa.getByText('Hola, ¿tenéis pan sin gluten?').waitFor();
    await rosa.getByText('Sin asignar').waitFor();
    await rosa.locator('.inbox-unread', { hasText: '1' }).waitFor();
    await title(page, `(1) ${TITLE}`);
    for (const [name, count] of [['Mías', 0], ['Sin asignar', 1], ['Todas', 1]] as const) await tab(page, name, count).waitFor();
    await live(page);

    await rosa.click();
    const thread = page.getByRole('region', { name: 'Conversación con Rosa Pérez' });
    await thread.getByRole('heading', { name: 'Rosa Pérez' }).waitFor();
    await thread.locator('.inbox-entry.is-in', { hasText: 'Hola, ¿tenéis pan sin gluten?' }).waitFor();
    await thread.locator('.inbox-status', { hasText: 'Abierta' }).waitFor();
    await thread.getByText('El asistente responde aquí').waitFor();
    await title(page, TITLE);

    // A reply goes to the customer as the member, and the assistant steps back.
    const text = thread.getByLabel('Respuesta al cliente');
    await text.fill('Sí, los jueves sin falta.');
    await thread.getByRole('button', { name: 'Enviar', exact: true }).click();
    const reply = thread.locator('.inbox-entry.is-out', { hasText: 'Sí, los jueves sin falta.' });
    await reply.locator('.inbox-entry-label', { hasText: 'Laura Martínez' }).waitFor();
    await until(async () => (await phone<{ text: string }[]>('/sent')).some((m) => m.text === 'Sí, los jueves sin falta.'), 'the reply on the phone');
    await thread.getByText('Asistente en pausa').waitFor();

    // Meanwhile the screen does not read the thread again (its reads answer 503), so the keyword rule's answer
    // to the customer's next question reaches the server after this person last read it: the send is stale. A
    // read already on its way when the route is set (the reply's own refresh, or the stream's for the reply)
    // still reaches the server, and read after the answer it would make the send current: the customer writes
    // once none is left.
    await page.route(THREAD_READ, (route) =>
      route.request().method() === 'GET' ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }) : route.fallback(),
    );
    await until(async () => readsUnderWay() === 0, 'the thread reads already on their way');
    await phone('/message', { from: ROSA, text: '¿Y el horario?', name: 'Rosa Pérez' });
    await until(async () => (await listed())[0]?.lastMessagePreview === 'Abrimos de 8 a 20 h.', 'the automatic answer in the inbox');
    await text.fill('Te paso el horario ahora.');
    await thread.getByRole('button', { name: 'Enviar', exact: true }).click();
    const conflict = thread.locator('.inbox-conflict');
    await conflict.getByText('Otra persona ya respondió en esta conversación después de tu última lectura').waitFor();
    await conflict.getByText('Abrimos de 8 a 20 h.').waitFor();
    await thread.locator('.inbox-entry.is-out', { hasText: 'Abrimos de 8 a 20 h.' }).getByText('Respuesta automática').waitFor();
    t.notOk((await phone<{ text: string }[]>('/sent')).some((m) => m.text === 'Te paso el horario ahora.'), 'nothing sent before the person decides');
    await conflict.getByRole('button', { name: 'Enviar de todos modos' }).click();
    await thread.locator('.inbox-entry.is-out', { hasText: 'Te paso el horario ahora.' }).waitFor();
    await conflict.waitFor({ state: 'detached' });
    await page.unroute(THREAD_READ);

    // A private note: labelled, in the thread, never sent.
    const sentBefore = (await phone<unknown[]>('/sent')).length;
    await thread.getByRole('button', { name: 'Nota privada' }).click();
    await thread.getByLabel('Nota privada para el equipo').fill('Clienta habitual: apartarle dos panes.');
    await thread.getByRole('button', { name: 'Añadir nota' }).click();
    const note = thread.locator('.inbox-entry.is-note', { hasText: 'Clienta habitual: apartarle dos panes.' });
    await note.getByText('Nota privada · Laura Martínez').waitFor();
    t.equal((await phone<unknown[]>('/sent')).length, sentBefore, 'the note never reaches the customer');
    t.same(await seriousA11yViolations(page), [], 'a thread with answers, a note and the composer: no serious accessibility finding');

    // Assigned to me: under «Mías» with my name.
    await thread.getByLabel('Asignada a').selectOption({ label: 'Laura Martínez (tú)' });
    await toast(page, 'Asignada a Laura Martínez');
    await tab(page, 'Mías', 1).click();
    await page.locator('.inbox-item', { hasText: 'Rosa Pérez' }).getByText('Laura Martínez').waitFor();

    // Resolved: the status says so, the assistant answers again, and «Resueltas» lists it.
    await thread.getByRole('button', { name: 'Resolver' }).click();
    await thread.locator('.inbox-status', { hasText: 'Resuelta' }).waitFor();
    await thread.getByRole('button', { name: 'Reabrir' }).waitFor();
    await thread.getByText('El asistente responde aquí').waitFor();
    await tab(page, 'Mías', 0).waitFor();
    await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'Resueltas' });
    await page.locator('.inbox-item', { hasText: 'Rosa Pérez' }).getByText('Laura Martínez · Resuelta').waitFor();

    // A new customer while the screen is open: the live stream lists them and the tab's title counts them.
    await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'Abiertas' });
    await tab(page, 'Todas', 0).click();
    // One burst of 32 lines (more than the 30 a thread opens with, for «Cargar anteriores» at 360 px).
    const lines = [...Array.from({ length: 31 }, (_, i) => `Línea ${i + 1}`), '¿Hacéis envíos?'];
    await phone('/message', { messages: lines.map((text) => ({ from: PEDRO, text, name: 'Pedro Gil' })) });
    await page.locator('.inbox-item', { hasText: 'Pedro Gil' }).getByText('¿Hacéis envíos?').waitFor();
    await title(page, `(1) ${TITLE}`);
  });

  t.test(`two members at ${LAPTOP.width} px: each sees the other viewing and typing, the other's reply, assignment and mention live`, async (t) => {
    /** A member's inbox, its live stream connected, the browser's notifications recorded. */
    const inboxOf = async (session: Session) => {
      const page = await signedInPage(t, stage, session, { viewport: LAPTOP, path: 'about:blank', timeout: 10_000 });
      await page.addInitScript(recordNotices);
      await page.goto('/conversations');
      await live(page);
      return page;
    };
    const [laura, other] = await Promise.all([inboxOf(owner), inboxOf(luis)]);

    // The browser's notices are off until asked for; the choice is remembered in this browser.
    await laura.getByRole('button', { name: 'Activar avisos del navegador' }).click();
    await laura.getByRole('button', { name: 'Desactivar avisos del navegador' }).waitFor();
    t.equal(await laura.evaluate(() => localStorage.getItem('inboxNotices')), 'on', 'remembered');

    // A new customer, already a contact, reaches both screens; both open the conversation and see each other there.
    const contact = await api<{ id: string }>(stage.app, 'POST', 'contacts', { firstName: 'Marta', lastName: 'Ruiz Soler', phone: '+34 633 44 45 55' }, owner.token);
    await phone('/message', { from: MARTA, text: '¿Me guardáis una tarta para el sábado?', name: 'Marta Ruiz' });
    const threadOf = (page: Page) => page.getByRole('region', { name: 'Conversación con Marta Ruiz' });
    const [hers, his] = [threadOf(laura), threadOf(other)];
    await laura.locator('.inbox-item', { hasText: 'Marta Ruiz' }).click();
    await other.locator('.inbox-item', { hasText: 'Marta Ruiz' }).click();
    await hers.getByText('También lo está viendo: Luis Pérez').waitFor();
    await his.getByText('También lo está viendo: Laura Martínez').waitFor();
    t.equal(await hers.getByRole('link', { name: 'Marta Ruiz Soler' }).getAttribute('href'), `/contacts/${contact.body.id}`, 'her contact, a link away');

    // She types a reply: he sees it, she never sees herself typing.
    await hers.getByLabel('Respuesta al cliente').fill('Sí, ¿de chocolate o de fresa?');
    const typing = his.getByText('Laura está escribiendo…');
    await typing.waitFor();
    t.equal(await hers.locator('.inbox-typing').textContent(), '', 'nobody typing on her own screen');

    // Her reply reaches his thread through the stream: the screen polls only while its stream is down, and
    // then every 30 s, three times the 10 s this waits at most (no clock is moved). Once sent, she no longer types.
    t.ok(INBOX_FALLBACK_POLL_MS >= 3 * 10_000, 'no poll can bring it in time');
    await hers.getByRole('button', { name: 'Enviar', exact: true }).click();
    await his.locator('.inbox-entry.is-out', { hasText: 'Sí, ¿de chocolate o de fresa?' }).waitFor({ timeout: INBOX_FALLBACK_POLL_MS / 6 });
    await typing.waitFor({ state: 'detached' });

    // He assigns it to her: her screen follows, and her browser tells her.
    await his.getByLabel('Asignada a').selectOption({ label: 'Laura Martínez' });
    await hers.getByLabel('Asignada a').locator('option:checked', { hasText: 'Laura Martínez (tú)' }).waitFor({ state: 'attached' });
    await noticed(laura, 'Nueva conversación asignada');

    // She takes Pedro herself (no news to her), then he names her in a note on Marta's: «Menciones» counts it.
    await laura.locator('.inbox-item', { hasText: 'Pedro Gil' }).click();
    const pedro = laura.getByRole('region', { name: 'Conversación con Pedro Gil' });
    await pedro.getByLabel('Asignada a').selectOption({ label: 'Laura Martínez (tú)' });
    await toast(laura, 'Asignada a Laura Martínez');
    await his.getByRole('button', { name: 'Nota privada' }).click();
    await his.getByLabel('Nota privada para el equipo').fill('@Laura ¿se la apartas tú?');
    await his.getByRole('button', { name: 'Añadir nota' }).click();
    const mentions = laura.getByRole('button', { name: 'Menciones 1 sin ver', exact: true });
    await mentions.waitFor();
    await noticed(laura, 'Te han mencionado');
    t.same(await notices(laura), ['Nueva conversación asignada', 'Te han mencionado'], 'nothing for her own reply or her own assignment');
    t.same(await notices(other), [], 'nothing for him: his notices are off');

    // The list of mentions opens the conversation, which sees the mention.
    await mentions.click();
    await laura.getByRole('region', { name: 'Notas que te mencionan' }).getByRole('button', { name: /^Luis Pérez \(sin ver\) .*@Laura ¿se la apartas tú\?$/ }).click();
    await hers.locator('.inbox-entry.is-note', { hasText: '@Laura ¿se la apartas tú?' }).waitFor();
    await laura.getByRole('button', { name: 'Menciones', exact: true }).waitFor();
  });

  t.test(`at ${PHONE.width} px: the list, then the thread in its place, then back; nothing wider than the screen`, async (t) => {
    const page = await signedInPage(t, stage, owner, { viewport: PHONE, path: '/conversations', timeout: 10_000 });
    const pedro = page.locator('.inbox-item', { hasText: 'Pedro Gil' });
    await pedro.waitFor();
    t.notOk(await page.getByText('Elige una conversación para leerla y responder.').isVisible(), 'no empty thread pane beside the list');
    await expectCleanLayout(t, page, 'the list at 360 px');

    await pedro.click();
    const thread = page.getByRole('region', { name: 'Conversación con Pedro Gil' });
    await thread.locator('.inbox-entry.is-in', { hasText: '¿Hacéis envíos?' }).waitFor();
    t.notOk(await pedro.isVisible(), 'the thread takes the list’s place');
    await expectCleanLayout(t, page, 'the thread at 360 px');

    const entries = thread.locator('.inbox-entry p');
    t.equal(await entries.count(), 30, 'the newest 30 entries first');
    await thread.getByRole('button', { name: 'Cargar anteriores' }).click();
    await entries.first().filter({ hasText: /^Línea 1$/ }).waitFor();
    t.equal(await entries.count(), 32, 'the older ones above them');
    t.equal(await thread.getByRole('button', { name: 'Cargar anteriores' }).count(), 0, 'nothing older left to load');

    // Without a linked WhatsApp a reply cannot leave: the reason under the composer, in Spanish, the text kept.
    await api(stage.app, 'POST', 'whatsapp/logout', {}, owner.token);
    const reply = thread.getByLabel('Respuesta al cliente');
    await reply.fill('Sí, a toda la provincia.');
    await thread.getByRole('button', { name: 'Enviar', exact: true }).click();
    const refusal = thread.locator('.form-error');
    await refusal.waitFor();
    t.equal(await refusal.textContent(), 'WhatsApp no está conectado', 'the reason, in Spanish');
    t.equal(await reply.inputValue(), 'Sí, a toda la provincia.', 'the reply is kept to send later');

    // «Sugerir respuesta» without an OpenAI key: the reason, in Spanish, and nothing in the thread.
    const suggest = thread.getByRole('button', { name: 'Sugerir respuesta' });
    await suggest.click();
    await thread.locator('.form-error', { hasText: 'Configura tu API key de OpenAI' }).waitFor();
    t.equal(await thread.locator('.inbox-entry.is-suggestion').count(), 0, 'no suggestion stored');
    // With a key the assistant drafts one (its answer stood in for here: the model is the services' tests' business).
    await page.route(/\/api\/conversations\/[0-9a-f-]{36}\/suggestions$/, (route) => {
      const conversationId = /conversations\/([0-9a-f-]{36})\//.exec(route.request().url())![1]!;
      const entry = { id: '5f0c8a52-8d0a-4a53-9d6e-2b7c1f4e9a10', conversationId, kind: 'suggestion', direction: null, author: 'assistant', authorId: null, authorName: null, text: 'Hola Pedro: sí, enviamos a toda la provincia en 48 h.', at: new Date().toISOString() };
      return route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify(entry) });
    });
    await suggest.click();
    const suggestion = thread.locator('.inbox-entry.is-suggestion', { hasText: 'Hola Pedro: sí, enviamos a toda la provincia en 48 h.' });
    await suggestion.getByText('Sugerencia del asistente').waitFor();
    await expectCleanLayout(t, page, 'a suggestion and the composer at 360 px');
    // «Usar esta respuesta»: the draft replaces what was written, in the reply, for the person to edit.
    await suggestion.getByRole('button', { name: 'Usar esta respuesta' }).click();
    const drafted = 'Hola Pedro: sí, enviamos a toda la provincia en 48 h.';
    await until(async () => (await reply.inputValue()) === drafted, 'the suggestion in the composer');
    t.ok(await reply.evaluate((el) => el === document.activeElement), 'the composer holds the suggestion, ready to edit');
    await page.unroute(/\/api\/conversations\/[0-9a-f-]{36}\/suggestions$/);

    await thread.getByRole('button', { name: 'Volver a la lista' }).click();
    await pedro.waitFor();
    t.notOk(await thread.isVisible(), 'back on the list');
    t.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'no sideways scroll');
  });
});
