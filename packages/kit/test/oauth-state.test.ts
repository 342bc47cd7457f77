import { randomUUID } from 'node:crypto';
import t from 'tap';
import { OAuthStateSigner } from '../src/index.js';

const signer = new OAuthStateSigner('s'.repeat(32));

t.test('a state comes back to the user and flow that started it', async (t) => {
  const userId = randomUUID();
  const state = signer.sign({ userId, flow: 'google' });
  t.same(signer.verify(state, 'google'), { userId, flow: 'google' });
  t.not(signer.sign({ userId, flow: 'google' }), state, 'each state is unique');
});

t.test('refused: another flow, expired, tampered, another key, garbage', async (t) => {
  const userId = randomUUID();
  const now = Date.now();
  const state = signer.sign({ userId, flow: 'google' }, now);
  t.equal(signer.verify(state, 'microsoft'), undefined, 'a Google state never completes a Microsoft flow');
  t.equal(signer.verify(state, 'google', now + 11 * 60_000), undefined, 'expired after 10 minutes');
  const [payload, mac] = state.split('.') as [string, string];
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), u: randomUUID() })).toString('base64url');
  t.equal(signer.verify(`${forged}.${mac}`, 'google'), undefined, 'another user in the payload');
  t.equal(new OAuthStateSigner('o'.repeat(32)).verify(state, 'google'), undefined, 'signed with another secret');
  for (const junk of ['', '.', 'abc', `${state}.x`, `${payload}.`]) t.equal(signer.verify(junk, 'google'), undefined, JSON.stringify(junk));
});
