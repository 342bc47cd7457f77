import fastifyJwt from '@fastify/jwt';
// Re-exported so every importer of the kit also loads @fastify/jwt's request/instance augmentations.
export type { JWT } from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../http/errors.js';
import type { Revocations } from './revocations.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Slack for clocks and rounding when checking a token's lifetime against the configured one. */
const LIFETIME_SLACK_SECONDS = 5;

export interface TokenSettings {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface AuthenticatedUser {
  id: string;
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** When the token was issued, milliseconds since the epoch (`ims` when present, else `iat`). */
  issuedAtMs?: number;
}

/** The claims the house signs; `ims` (issued at, in milliseconds) lets a password change end sessions to the millisecond. */
export interface TokenClaims {
  sub: string;
  jti: string;
  ims?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: AuthenticatedUser;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The revocations the token check consults (logout, password change, unknown users). */
    revocations: Revocations;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a token (login, register, health, OAuth callbacks). */
    public?: boolean;
  }
}

export interface AuthPluginOptions {
  tokens: TokenSettings;
  revocations: Revocations;
}

/**
 * Token verification shared by the gateway and every service: HS256 only
 * (so `alg: none` and key-confusion tokens fail), issuer, audience, expiry
 * and jti required, and revoked ids refused. Identity comes only from the
 * verified token, never from a client header. Registered once per process:
 * in the embedded topology the gateway and the services share it.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { tokens, revocations }) => {
    if (app.hasDecorator('authenticate')) return;
    await app.register(fastifyJwt, {
      secret: tokens.secret,
      // @fastify/jwt takes a number as seconds (it converts to fast-jwt's milliseconds itself).
      sign: { algorithm: 'HS256', iss: tokens.issuer, aud: tokens.audience, expiresIn: tokens.ttlSeconds },
      verify: {
        algorithms: ['HS256'],
        allowedIss: tokens.issuer,
        allowedAud: tokens.audience,
        requiredClaims: ['sub', 'jti', 'exp', 'iat', 'iss', 'aud'],
      },
      formatUser: (payload) => {
        const claims = payload as unknown as { sub: string; jti: string; exp: number; iat: number; ims?: unknown };
        const issuedAtMs = typeof claims.ims === 'number' && Number.isFinite(claims.ims) ? claims.ims : claims.iat * 1000;
        return { id: claims.sub, jti: claims.jti, exp: claims.exp, issuedAtMs };
      },
    });
    const maxLifetime = tokens.ttlSeconds + LIFETIME_SLACK_SECONDS;
    app.decorate('revocations', revocations);
    // Embedded, the gateway and the service both ask; the second check is free.
    const verified = new WeakSet<FastifyRequest>();
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (verified.has(request)) return;
      try {
        await request.jwtVerify();
      } catch {
        throw unauthorized();
      }
      const { id, jti, exp, issuedAtMs = 0 } = request.user;
      // A sub that is not a uuid would reach the database as a type error (500), and no user has one.
      if (typeof id !== 'string' || !UUID.test(id) || typeof jti !== 'string') throw unauthorized();
      // Tokens signed with a longer lifetime than configured (the old 7,000-day ones) are not honoured.
      if (exp - Math.floor(issuedAtMs / 1000) > maxLifetime) throw unauthorized();
      if (!(await revocations.isValid({ id, jti, issuedAtMs }))) throw unauthorized();
      verified.add(request);
    });
  },
  { name: 'asistente-auth' },
);

/** Adds the token check to every route of `app`'s scope except those marked public. */
export function requireAuth(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public) return;
    await app.authenticate(request, reply);
  });
}
