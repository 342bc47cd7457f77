import { roleAllows } from '@asistente/contracts';
import { looksLikePersonalToken, PersonalTokenLookup, roleRefused, type App, type Platform } from '@asistente/kit';
import { personalTokenExchange } from './personal-token-gate.js';
import { API_PREFIX, isPublic, routeFor } from './routing-table.js';

export interface GateLimits {
  loginPerIp: number;
  registerPerIp: number;
  /** Password reset requests and uses per client address (the auth service also limits per mailbox). */
  passwordResetPerIp: number;
  passwordResetWindowMs: number;
  windowMs: number;
  /** Requests per minute one personal access token may make. */
  personalTokenPerMinute: number;
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
function bearer(header: string | undefined): string | undefined {
  const match = header ? /^bearer (\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The edge's checks on every /api request, before it reaches a service:
 * per-address rate limits on sign-in, sign-up and password reset, then the
 * token (except on public routes): a personal access token is first exchanged for a session token bounded
 * by its scopes, and the caller's role in the workspace must reach the route (the role table). Unknown prefixes fall through to the 404 handler.
 */
export function installAuthGate(app: App, limits: GateLimits, { db, revocations, tokens }: Pick<Platform, 'db' | 'revocations' | 'tokens'>): void {
  const exchange = personalTokenExchange(app, tokens, PersonalTokenLookup.for(db, revocations), limits.personalTokenPerMinute);
  const perIp = (name: string, max: number, timeWindow: number) =>
    app.rateLimit({ max, timeWindow, keyGenerator: (r) => `${name}|${r.ip}` });
  const passwordReset = perIp('password-reset', limits.passwordResetPerIp, limits.passwordResetWindowMs);
  // Paths the edge limits per client address, whatever service answers them.
  const limited = new Map([
    ['POST /auth/login', perIp('login', limits.loginPerIp, limits.windowMs)],
    ['POST /auth/register', perIp('register', limits.registerPerIp, limits.windowMs)],
    // Accepting an invitation may create an account: it spends the sign-up budget's kind of limit.
    ['POST /auth/invitations/accept', perIp('invitation-accept', limits.registerPerIp, limits.windowMs)],
    // Forgot and reset share one budget: asking for links and trying tokens are the same abuse.
    ['POST /auth/password/forgot', passwordReset],
    ['POST /auth/password/reset', passwordReset],
  ]);

  // request.url is already the normalised target (createHttpApp's rewriteUrl): the path the router routed.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    if (!path.startsWith(`${API_PREFIX}/`)) return;
    const servicePath = path.slice(API_PREFIX.length);
    const key = `${request.method} ${servicePath}`;
    const limit = limited.get(key);
    if (limit) await limit.call(app, request, reply);
    if (reply.sent) return;
    const route = routeFor(servicePath);
    if (!route || isPublic(route, request.method, servicePath)) return;
    const token = bearer(request.headers.authorization);
    if (token && looksLikePersonalToken(token)) {
      await exchange(request, reply, token, servicePath);
      if (reply.sent) return;
    }
    await app.authenticate(request, reply);
    // The role table on the path the router will route; each service decides again on its route's pattern.
    if (!roleAllows(request.user.role, request.method, servicePath)) throw roleRefused();
  });
}
