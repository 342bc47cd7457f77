import { randomUUID } from 'node:crypto';

/**
 * The ids of the session tokens the gateway exchanges personal tokens for (`pat.<personalTokenId>.<fresh>`): what
 * names such a session, read by the personal tokens that make them and by the revocations that end them.
 */
const EXCHANGED_JTI_PREFIX = 'pat.';

/**
 * The id of a session token the gateway exchanged a personal token for: fresh for every request, and
 * naming the personal token, so its revocation ends the live streams such sessions opened (`SessionsEnded`).
 */
export function exchangedTokenJti(personalTokenId: string): string {
  return `${EXCHANGED_JTI_PREFIX}${personalTokenId}.${randomUUID()}`;
}

/** Whether `jti` is the id of a session token exchanged for the personal token `personalTokenId`. */
export function isExchangedFrom(jti: string, personalTokenId: string): boolean {
  return jti.startsWith(`${EXCHANGED_JTI_PREFIX}${personalTokenId}.`);
}

/**
 * What stays the same across a caller's requests: the personal token's id for a token the gateway exchanged
 * (its jti is fresh every request), else the session token's own jti.
 */
export function callerTokenId(jti: string): string {
  if (!jti.startsWith(EXCHANGED_JTI_PREFIX)) return jti;
  const end = jti.lastIndexOf('.');
  return end > EXCHANGED_JTI_PREFIX.length ? jti.slice(0, end) : jti;
}

/** The id of the personal token a session token was exchanged for, or undefined for a session's own token. */
export function exchangedFromPersonalToken(jti: string): string | undefined {
  const caller = callerTokenId(jti);
  return caller.startsWith(EXCHANGED_JTI_PREFIX) && caller !== jti ? caller.slice(EXCHANGED_JTI_PREFIX.length) : undefined;
}
