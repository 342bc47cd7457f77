import { createHmac, timingSafeEqual } from 'node:crypto';
import { KeptProofs, PROOF_TTL_MS } from './kept-proofs.js';

/** Added by the gateway to a proxied request whose token it has just checked against the revocations. */
export const TOKEN_CHECKED_HEADER = 'x-asistente-token-checked';
/** How long a proof holds: the hop from the gateway to the service, with room for clocks a little apart. */
export const TOKEN_CHECKED_TTL_MS = PROOF_TTL_MS;

function mac(secret: string, token: string, until: number): string {
  // Domain-separated from the JWT signatures made with the same secret (a JWT's signed input has no NUL).
  return createHmac('sha256', secret).update(`token-checked\0${until}\0${token}`).digest('base64url');
}

/**
 * `<until>.<mac>`: this exact bearer token passed the revocation check at the gateway, good until `until`
 * (ms). The service behind then skips its own revocation read, one database round trip per request, and
 * still verifies the token itself. Made with the token secret, which only the gateway and services hold.
 */
export function tokenCheckedProof(secret: string, token: string, now = Date.now()): string {
  const until = now + TOKEN_CHECKED_TTL_MS;
  return `${until}.${mac(secret, token, until)}`;
}

/** The end a proof names, when it is well formed and still holds (not past, not too far ahead). */
function holdingUntil(proof: string, now: number): number | undefined {
  const dot = proof.indexOf('.');
  const until = Number(proof.slice(0, dot));
  return dot > 0 && Number.isSafeInteger(until) && until >= now && until <= now + 2 * TOKEN_CHECKED_TTL_MS ? until : undefined;
}

/** Whether `proof` was made by `tokenCheckedProof` for this token and still holds. */
export function acceptsTokenCheckedProof(secret: string, token: string, proof: unknown, now = Date.now()): boolean {
  if (typeof proof !== 'string') return false;
  const until = holdingUntil(proof, now);
  if (until === undefined) return false;
  const expected = Buffer.from(mac(secret, token, until));
  const given = Buffer.from(proof.slice(proof.indexOf('.') + 1));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The gateway's proofs, one HMAC per token per half of `TOKEN_CHECKED_TTL_MS` instead of one per request:
 * a proof made for this token is handed on while at least half its life is left. It is only ever added to
 * a request whose token has just passed the revocation check itself, so a proof still says what it said:
 * this token passed the check, and it holds a second at least, never longer than a fresh one.
 */
export class TokenCheckedProofs extends KeptProofs {
  constructor(secret: string, capacity: number) {
    super((token, now) => tokenCheckedProof(secret, token, now), capacity);
  }
}

/**
 * The service's side: a proof the gateway hands on for a second (`TokenCheckedProofs`) comes with every
 * request of that client meanwhile, and its MAC is the same each time. A proof whose MAC matched is kept
 * with the token it was made for, so the next request with the same pair skips the HMAC; whether it still
 * holds is asked every time. Only proofs that matched are kept, so a forged one never fills the map.
 */
export class AcceptedProofs {
  private readonly accepted = new Map<string, string>();

  constructor(
    private readonly secret: string,
    private readonly capacity: number,
  ) {}

  accepts(token: string, proof: unknown, now = Date.now()): boolean {
    if (typeof proof !== 'string' || holdingUntil(proof, now) === undefined) return false;
    if (this.accepted.get(proof) === token) return true;
    if (!acceptsTokenCheckedProof(this.secret, token, proof, now)) return false;
    // Full: start again (a proof lives two seconds; the ones in use come back at once).
    if (this.accepted.size >= this.capacity) this.accepted.clear();
    this.accepted.set(proof, token);
    return true;
  }
}
