/**
 * Claims of tokens that passed verification, kept by the token's exact text until the token expires, so a
 * client's next request skips the signature check. fast-jwt's own cache does the same but keys it by a
 * SHA-256 of the token, computed on every request, a hit included: that hash was the largest part of the
 * token check on the gateway and on each service. Only tokens this process verified (so signed with the
 * secret) are kept; a forged or broken token is never a key, so it can neither fill the map nor match one.
 */
export class VerifiedTokens<Claims extends { exp: number }> {
  private readonly claims = new Map<string, Claims>();

  constructor(private readonly capacity: number) {}

  /** The claims of `token` if it was verified here and has not expired (exp is in seconds). */
  get(token: string, now = Date.now()): Claims | undefined {
    const claims = this.claims.get(token);
    if (claims === undefined) return undefined;
    if (claims.exp * 1000 < now) {
      this.claims.delete(token);
      return undefined;
    }
    return claims;
  }

  set(token: string, claims: Claims): void {
    // Full: the oldest entry goes (Map keeps insertion order), so the tokens in use stay.
    if (this.claims.size >= this.capacity) this.claims.delete(this.claims.keys().next().value!);
    this.claims.set(token, claims);
  }
}
