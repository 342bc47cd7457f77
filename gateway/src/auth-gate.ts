import type { App } from '@asistente/kit';
import { API_PREFIX, isPublic, routeFor } from './routing-table.js';

/** Paths the edge limits per client address, whatever service answers them. */
const LIMITED = new Set(['POST /auth/login', 'POST /auth/register']);

export interface GateLimits {
  loginPerIp: number;
  registerPerIp: number;
  windowMs: number;
}

/**
 * The edge's checks on every /api request, before it reaches a service:
 * per-address rate limits on sign-in and sign-up, then the token (except
 * on public routes). Unknown prefixes fall through to the 404 handler.
 */
export function installAuthGate(app: App, limits: GateLimits): void {
  const login = app.rateLimit({ max: limits.loginPerIp, timeWindow: limits.windowMs, keyGenerator: (r) => `login|${r.ip}` });
  const register = app.rateLimit({
    max: limits.registerPerIp,
    timeWindow: limits.windowMs,
    keyGenerator: (r) => `register|${r.ip}`,
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith(`${API_PREFIX}/`)) return;
    const servicePath = path.slice(API_PREFIX.length);
    const key = `${request.method} ${servicePath}`;
    if (LIMITED.has(key)) await (key.endsWith('login') ? login : register).call(app, request, reply);
    if (reply.sent) return;
    const route = routeFor(servicePath);
    if (!route || isPublic(route, request.method, servicePath)) return;
    await app.authenticate(request, reply);
  });
}
