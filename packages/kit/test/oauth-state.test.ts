import { randomUUID } from 'node:crypto';
import t from 'tap';
import { OAuthStateSigner } from '../src/index.js';

const signer = new OAuthStateSigner('s'.repeat(32));
const browser = 'hash-of-the-browser-nonce';

t.test('a state comes back to the user, flow and browser that started it, with its one-time id', async (t) => {
  const userId = randomUUID();
  const now = Date.now();
  const state = signer.sign({ userId, flow: 'google', browser }, now);
  t.match(signer.verify(state, 'google'), { userId, flow: 'google', browser, id: /^[A-Za-z0-9_-]{22}$/, expiresAt: now + 10 * 60_000 });
  const other = signer.sign({ userId, flow: 'google', browser });
  t.not(other, state, 'each state is unique');
  t.not(signer.verify(other, 'google')?.id, signer.verify(state, 'google')?.id, 'and so is its id');
});

t.test('refused: another flow, expired, tampered, another key, garbage', async (t) => {
  const userId = randomUUID();
  const now = Date.now();
  const state = signer.sign({ userId, flow: 'google', browser }, now);
  t.equal(signer.verify(state, 'microsoft'), undefined, 'a Google state never completes a Microsoft flow');
  t.equal(signer.verify(state, 'google', now + 11 * 60_000), undefined, 'expired after 10 minutes');
  const [payload, mac] = state.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  for (const [what, change] of [['another user', { u: randomUUID() }], ['another browser', { b: 'mine' }], ['another id', { i: 'x' }]] as const) {
    const forged = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url');
    t.equal(signer.verify(`${forged}.${mac}`, 'google'), undefined, `${what} in the payload`);
  }
  t.equal(new OAuthStateSigner('o'.repeat(32)).verify(state, 'google'), undefined, 'signed with another secret');
  for (const junk of ['', '.', 'abc', `${state}.x`, `${payload}.`]) t.equal(signer.verify(junk, 'google'), undefined, JSON.stringify(junk));
});
