import { createHmac, timingSafeEqual } from 'node:crypto';
import { PROOF_TTL_MS } from './kept-proofs.js';

/**
 * Added by the gateway to every proxied request: the client's address as the gateway resolved it (its own
 * TRUST_PROXY rules), signed. Behind the gateway a service sees only the gateway's address; with this it
 * knows the client's (the security log), and a client cannot claim one: the gateway replaces the header,
 * and one made without the token secret is ignored.
 */
export const CLIENT_ADDRESS_HEADER = 'x-asistente-client-address';

/** Longer than any IPv6 address in text; a longer value is not an address. */
const MAX_ADDRESS = 64;

function mac(secret: string, address: string, until: number): string {
  // Domain-separated from the JWTs and token proofs made with the same secret.
  return createHmac('sha256', secret).update(`client-address\0${until}\0${address}`).digest('base64url');
}

/** `<until>.<mac>.<address>`: this request came from `address`, said by the gateway until `until` (ms). */
export function clientAddressProof(secret: string, address: string, now = Date.now()): string {
  const until = now + PROOF_TTL_MS;
  return `${until}.${mac(secret, address, until)}.${address}`;
}

/** The address a proof made by `clientAddressProof` names, if it is one and still holds. */
export function addressFromProof(secret: string, proof: unknown, now = Date.now()): string | undefined {
  if (typeof proof !== 'string') return undefined;
  const first = proof.indexOf('.');
  const second = proof.indexOf('.', first + 1);
  if (first <= 0 || second <= first) return undefined;
  const until = Number(proof.slice(0, first));
  if (!Number.isSafeInteger(until) || until < now || until > now + 2 * PROOF_TTL_MS) return undefined;
  const address = proof.slice(second + 1);
  if (address === '' || address.length > MAX_ADDRESS) return undefined;
  const expected = Buffer.from(mac(secret, address, until));
  const given = Buffer.from(proof.slice(first + 1, second));
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
}
