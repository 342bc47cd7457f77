// The browser tests' fake WhatsApp phone (web/test/fixtures/whatsapp-fake-phone.mjs) driven from a benchmark:
// the app loads it through WHATSAPP_TEST_SOCKET_MODULE (test-only) in place of Baileys' socket, and this
// side scans its QR and hands it incoming messages over its control port.
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

export const FAKE_PHONE_MODULE = fileURLToPath(new URL('../../web/test/fixtures/whatsapp-fake-phone.mjs', import.meta.url));

/** Messages per `messages.upsert` event, as a busy phone delivers them. */
const BURST = 100;

/** Polls `check` until it answers true (or throws after `ms`). */
export async function until(check, what, ms = 600_000, every = 100) {
  const deadline = Date.now() + ms;
  // A poll that fails (a connection the busy server closed meanwhile) is only a poll that did not see it yet.
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/**
 * One call to the fake phone's control server at `base`, on a connection of its own: the app's event loop
 * may be busy long enough for the control server to close an idle kept-alive connection just as the next
 * call reuses it.
 */
export function controlCall(base, path, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method: 'POST', agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`fake phone ${path}: ${response.statusCode} ${text}`))));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body ?? {}));
  });
}

/** The phone behind the control port `port`: link it to the user's account, then send it messages. */
export function fakePhone(port) {
  const call = (path, body) => controlCall(`http://127.0.0.1:${port}`, path, body);
  return {
    async link(url, authorization) {
      const connect = await fetch(`${url}/api/whatsapp/connect`, { method: 'POST', headers: { authorization } });
      if (connect.status !== 200) throw new Error(`connect answered ${connect.status}`);
      await until(async () => (await call('/sockets')).sockets > 0, 'the socket');
      await call('/scan');
      await until(async () => {
        const status = await fetch(`${url}/api/whatsapp/status`, { headers: { authorization } }).then((r) => r.json());
        return status.state === 'connected';
      }, 'the fake phone linked');
    },
    /** `count` incoming messages from `chats` chats, handed over in bursts; resolves once all are stored. */
    async receive(url, authorization, count, chats) {
      for (let start = 0; start < count; start += BURST) {
        const messages = [];
        for (let i = start; i < Math.min(count, start + BURST); i++) {
          messages.push({ from: `34600${String(i % chats).padStart(6, '0')}@s.whatsapp.net`, text: `Mensaje ${i} de prueba`, name: `Cliente ${i % chats}` });
        }
        await call('/message', { messages });
      }
      await until(async () => {
        const stats = await fetch(`${url}/api/whatsapp/stats`, { headers: { authorization } }).then((r) => r.json());
        return stats.received >= count;
      }, 'the messages stored');
    },
  };
}
