import fastifyJwt from '@fastify/jwt';
// Re-exported so every importer of the kit also loads @fastify/jwt's request/instance augmentations.
export type { JWT } from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../http/errors.js';
import type { Revocations } from './revocations.js';

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
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; jti: string };
    user: AuthenticatedUser;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
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
      sign: { algorithm: 'HS256', iss: tokens.issuer, aud: tokens.audience, expiresIn: tokens.ttlSeconds * 1000 },
      verify: {
        algorithms: ['HS256'],
        allowedIss: tokens.issuer,
        allowedAud: tokens.audience,
        requiredClaims: ['sub', 'jti', 'exp', 'iss', 'aud'],
      },
      formatUser: (payload) => {
        const claims = payload as unknown as { sub: string; jti: string; exp: number };
        return { id: claims.sub, jti: claims.jti, exp: claims.exp };
      },
    });
    // Embedded, the gateway and the service both ask; the second check is free.
    const verified = new WeakSet<FastifyRequest>();
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (verified.has(request)) return;
      try {
        await request.jwtVerify();
      } catch {
        throw unauthorized();
      }
      if (await revocations.isRevoked(request.user.jti)) throw unauthorized();
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
