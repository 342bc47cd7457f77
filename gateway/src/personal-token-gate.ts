import type { FastifyReply, FastifyRequest } from 'fastify';
import { scopesAllow } from '@asistente/contracts';
import { exchangedTokenSigner, PersonalTokenBudget, scopeRefused, unauthorized, type App, type PersonalTokenLookup, type TokenSettings } from '@asistente/kit';

export const TOKEN_REFUSED = 'El token de acceso no es válido, ha caducado o fue revocado';

/**
 * A request bearing `asis_pat_…`: the token is looked up (unknown, expired or revoked: 401), limited per
 * token, checked against the route (not covered: 403), then exchanged for a short-lived house token whose
 * `scp` claim carries its scopes, so every service behind sees an ordinary verified token with
 * `request.user.scopes`, embedded or distributed alike.
 */
export function personalTokenExchange(_app: App, tokens: TokenSettings, lookup: PersonalTokenLookup, perMinute: number) {
  const sign = exchangedTokenSigner(tokens);
  // Counted in PostgreSQL, not in this process: every gateway replica, and the MCP server for the other calls
  // of a batch, spend from the one budget of the token.
  const budget = new PersonalTokenBudget(lookup.sql, perMinute);

  return async (request: FastifyRequest, reply: FastifyReply, token: string, servicePath: string): Promise<void> => {
    const grant = await lookup.find(token);
    if (!grant) throw unauthorized(TOKEN_REFUSED);
    const left = await budget.spend(grant.id);
    void reply.headers({ 'x-ratelimit-limit': left.limit, 'x-ratelimit-remaining': left.remaining, 'x-ratelimit-reset': left.resetSeconds });
    if (!scopesAllow(grant.scopes, request.method, servicePath)) throw scopeRefused();
    request.headers.authorization = `Bearer ${sign(grant)}`;
  };
}
