import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, exchangedTokenSigner, unauthorized, type App, type PersonalTokenGrant, type PersonalTokenLookup, type TokenSettings } from '@asistente/kit';
import { scopesAllow } from './personal-token-scopes.js';

const MINUTE_MS = 60_000;

export const TOKEN_REFUSED = 'El token de acceso no es válido, ha caducado o fue revocado';
export const SCOPE_REFUSED = 'Este token no tiene permiso para esta operación';

/**
 * A request bearing `asis_pat_…`: the token is looked up (unknown, expired or revoked: 401), limited per
 * token, checked against the route (not covered: 403), then exchanged for a short-lived house token whose
 * `scp` claim carries its scopes, so every service behind sees an ordinary verified token with
 * `request.user.scopes`, embedded or distributed alike.
 */
export function personalTokenExchange(app: App, tokens: TokenSettings, lookup: PersonalTokenLookup, perMinute: number) {
  const sign = exchangedTokenSigner(tokens);
  const grants = new WeakMap<FastifyRequest, PersonalTokenGrant>();
  const limit = app.rateLimit({ max: perMinute, timeWindow: MINUTE_MS, keyGenerator: (request) => `pat|${grants.get(request)?.id ?? ''}` });

  return async (request: FastifyRequest, reply: FastifyReply, token: string, servicePath: string): Promise<void> => {
    const grant = await lookup.find(token);
    if (!grant) throw unauthorized(TOKEN_REFUSED);
    grants.set(request, grant);
    await limit.call(app, request, reply);
    if (reply.sent) return;
    if (!scopesAllow(grant.scopes, request.method, servicePath)) throw new AppError(403, 'TOKEN_SCOPE', SCOPE_REFUSED);
    request.headers.authorization = `Bearer ${sign(grant)}`;
  };
}
