import t from 'tap';
import { VerifiedTokens } from '../src/auth/verified-tokens.js';

t.test('a verified token is remembered by its exact text until it expires, the oldest leaving when full', async (t) => {
  const tokens = new VerifiedTokens<{ exp: number; sub: string }>(2);
  const now = Date.now();
  const exp = Math.floor(now / 1000) + 60;
  tokens.set('a.b.c', { exp, sub: 'uno' });
  t.equal(tokens.get('a.b.c', now)?.sub, 'uno');
  t.equal(tokens.get('a.b.d', now), undefined, 'another text is another token');
  t.equal(tokens.get('a.b.c', exp * 1000)?.sub, 'uno', 'until the second it expires');
  t.equal(tokens.get('a.b.c', exp * 1000 + 1), undefined, 'not after');
  tokens.set('a.b.c', { exp, sub: 'uno' });
  tokens.set('d.e.f', { exp, sub: 'dos' });
  tokens.set('g.h.i', { exp, sub: 'tres' });
  t.equal(tokens.get('a.b.c', now), undefined, 'the oldest left');
  t.equal(tokens.get('g.h.i', now)?.sub, 'tres');
});
