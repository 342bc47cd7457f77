// Proves the words the settings screen shows before a password change: how many personal tokens it will revoke.
import t from 'tap';
import type { PersonalToken } from '@asistente/contracts';
import { revocationNotice, workingTokens } from '../src/features/settings/password-change.js';

const NOW = Date.parse('2026-12-01T10:00:00Z');
const token = (expiresAt: string | null): PersonalToken => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Zapier',
  scopes: ['contacts:read'],
  prefix: 'asis_pat_abcdef',
  createdAt: '2026-11-01T10:00:00Z',
  lastUsedAt: null,
  expiresAt,
});

t.test('the tokens counted are the ones that still work', async (t) => {
  t.equal(workingTokens([], NOW), 0, 'none: no question is asked');
  t.equal(workingTokens([token(null), token('2026-12-30T00:00:00Z'), token('2026-11-30T00:00:00Z'), token('2026-12-01T10:00:00Z')], NOW), 2, 'expired ones left out');
});

t.test('the notice names how many will be revoked', async (t) => {
  t.match(revocationNotice(3), /^Se revocarán tus 3 tokens de acceso: /);
  t.match(revocationNotice(2), /^Se revocarán tus 2 tokens de acceso: lo que los use/);
  t.match(revocationNotice(1), /^Se revocará tu token de acceso: lo que lo use/, 'one token, in the singular');
  t.match(revocationNotice(null), /^Se revocarán todos tus tokens de acceso: /, 'the count could not be read');
});
