import type { PersonalToken } from '@asistente/contracts';

/** How many of the owner's tokens a new password would revoke that still work (an expired one is dead already). */
export function workingTokens(tokens: readonly PersonalToken[], now = Date.now()): number {
  return tokens.filter((token) => !token.expiresAt || Date.parse(token.expiresAt) > now).length;
}

/**
 * What the owner reads before confirming a new password: the server revokes every personal token with it.
 * `null`: the count could not be read.
 */
export function revocationNotice(count: number | null): string {
  if (count === 1) return 'Se revocará tu token de acceso: lo que lo use (scripts, integraciones, clientes de IA) dejará de funcionar al momento.';
  const tokens = count === null ? 'todos tus tokens de acceso' : `tus ${count} tokens de acceso`;
  return `Se revocarán ${tokens}: lo que los use (scripts, integraciones, clientes de IA) dejará de funcionar al momento.`;
}
