import fastifyJwt from '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
// Re-exported so every importer of the kit also loads @fastify/jwt's request/instance augmentations.
export type { JWT } from '@fastify/jwt';
import { isWorkspaceRole, PERSONAL_TOKEN_SCOPES, ROLE_REFUSED, roleAllows, scopesAllow, type PersonalTokenScope, type WorkspaceRole } from '@asistente/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, unauthorized } from '../http/errors.js';
import { runAsMember, runAsNoOne } from './acting-member.js';
import type { Revocations } from './revocations.js';
import { addressFromProof, CLIENT_ADDRESS_HEADER, clientAddressProof } from './client-address.js';
import { KeptProofs } from './kept-proofs.js';
import { AcceptedProofs, TOKEN_CHECKED_HEADER, TokenCheckedProofs } from './token-checked.js';
import { VerifiedTokens } from './verified-tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Slack for clocks and rounding when checking a token's lifetime against the configured one. */
const LIFETIME_SLACK_SECONDS = 5;
/** Verified tokens whose claims are kept (the clients active at once, each with its token). */
const VERIFIED_TOKENS_CACHED = 10_000;

/** The claims a verified token is required to carry (`ims` is optional). */
interface VerifiedClaims {
  sub: unknown;
  jti: unknown;
  exp: number;
  iat: number;
  ims?: unknown;
  scp?: unknown;
  wid?: unknown;
  role?: unknown;
  own?: unknown;
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), as @fastify/jwt reads it. */
function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const parts = header.split(' ');
  return parts.length === 2 && /^bearer$/i.test(parts[0]!) && parts[1] ? parts[1] : undefined;
}

/** A token's `scp` claim as scopes; anything but an array of known scopes is no scopes at all (deny, not allow). */
function scopesOf(claim: unknown): readonly PersonalTokenScope[] | undefined {
  if (claim === undefined) return undefined;
  if (!Array.isArray(claim)) return [];
  return claim.filter((s): s is PersonalTokenScope => (PERSONAL_TOKEN_SCOPES as readonly unknown[]).includes(s));
}

export interface TokenSettings {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface AuthenticatedUser {
  /** Who acts: the person (`sub`). */
  id: string;
  /** Whose data it is: the workspace the session acts in (`wid`). */
  workspaceId: string;
  /** The person's role in it, as the session was opened with (`role`). */
  role: WorkspaceRole;
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** When the token was issued, milliseconds since the epoch (`ims` when present, else `iat`). */
  issuedAtMs?: number;
  /**
   * What a personal access token lets this request reach (`scp`); absent for a session, which reaches
   * everything. Present, the caller offers only what these cover (the MCP server's tools, for one).
   */
  scopes?: readonly PersonalTokenScope[];
}

/** Who acts, where, and as what, as the session's token says: what a domain needs of the caller. */
export type ActingMember = Pick<AuthenticatedUser, 'id' | 'workspaceId' | 'role'>;

/** The claims the house signs; `ims` (issued at, in milliseconds) lets a password change end sessions to the millisecond. */
export interface TokenClaims {
  sub: string;
  jti: string;
  /** The workspace; a token signed before workspaces existed has none and acts in its person's own (same id). */
  wid?: string;
  role?: WorkspaceRole;
  ims?: number;
  /** The scopes of the personal access token the gateway exchanged for this token. */
  scp?: PersonalTokenScope[];
  /**
   * Signed only by a service calling a sibling as the workspace on its own behalf (`ServiceClient` with a
   * workspace id): no member asked, so the request runs as no one, though its `sub` is the founder's id.
   */
  own?: true;
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
    /** For the gateway's proxy: the proof that this request's token was just checked, once it was. */
    tokenCheckedProof: (request: Pick<FastifyRequest, 'headers'>) => string | undefined;
    /** For the gateway's proxy: the client's address, signed for the service behind (`CLIENT_ADDRESS_HEADER`). */
    clientAddressProof: (request: Pick<FastifyRequest, 'ip'>) => string;
  }
  interface FastifyRequest {
    /**
     * The client's address: the one the gateway signed for this request when a service sits behind it,
     * else the request's own `ip`. What the security log keeps.
     */
    readonly clientIp: string;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a token (login, register, health, OAuth callbacks). */
    public?: boolean;
  }
}

export interface AuthPluginOptions {
  tokens: TokenSettings;
  revocations: Revocations;
  /**
   * Take the gateway's proof (`TOKEN_CHECKED_HEADER`) in place of this process's own revocation read.
   * On in the services; the gateway, which faces clients, turns it off and drops the header they send.
   */
  acceptTokenCheckedProof?: boolean;
  /**
   * Run each route's handler as the member whose request it answers (`runAsMember`), for what it writes. Off
   * in the distributed gateway, whose routes proxy and write nothing: the process then never turns on the
   * async context its every promise would otherwise carry.
   */
  handlersActAsMember?: boolean;
}

/**
 * Token verification shared by the gateway and every service: HS256 only
 * (so `alg: none` and key-confusion tokens fail), issuer, audience, expiry
 * and jti required, and revoked ids refused. Identity comes only from the
 * verified token, never from a client header. Registered once per process:
 * in the embedded topology the gateway and the services share it.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { tokens, revocations, acceptTokenCheckedProof = true, handlersActAsMember = true }) => {
    if (app.hasDecorator('authenticate')) return;
    // Signing (auth, tests) goes through @fastify/jwt; verification does not (see `verifyToken`).
    await app.register(fastifyJwt, {
      secret: tokens.secret,
      // @fastify/jwt takes a number as seconds (it converts to fast-jwt's milliseconds itself).
      sign: { algorithm: 'HS256', iss: tokens.issuer, aud: tokens.audience, expiresIn: tokens.ttlSeconds },
    });
    // Made once: request.jwtVerify() merges its options and resolves the secret through a callback
    // waterfall on every request, which cost the gateway and each service more than the check itself.
    // `verifiedTokens` keeps a verified token's claims (never beyond its exp); revocation is asked every time.
    const verifyToken = createVerifier({
      key: tokens.secret,
      algorithms: ['HS256'],
      allowedIss: tokens.issuer,
      allowedAud: tokens.audience,
      requiredClaims: ['sub', 'jti', 'exp', 'iat', 'iss', 'aud'],
    });
    const verifiedTokens = new VerifiedTokens<VerifiedClaims>(VERIFIED_TOKENS_CACHED);
    const maxLifetime = tokens.ttlSeconds + LIFETIME_SLACK_SECONDS;
    app.decorate('revocations', revocations);
    // Embedded, the gateway and the service both ask; the second check is free.
    const verified = new WeakSet<object>();
    // Requests of the workspace's own work (`own`): answered as no member, whoever's id the token carries.
    const ownWork = new WeakSet<object>();
    const acceptedProofs = acceptTokenCheckedProof ? new AcceptedProofs(tokens.secret, VERIFIED_TOKENS_CACHED) : undefined;
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (verified.has(request)) return;
      const token = bearerToken(request.headers.authorization);
      if (!token) throw unauthorized();
      let claims = verifiedTokens.get(token);
      if (!claims) {
        try {
          claims = verifyToken(token) as VerifiedClaims;
        } catch {
          throw unauthorized();
        }
        verifiedTokens.set(token, claims);
      }
      const { sub: id, jti, exp } = claims;
      const tenancy = tenancyOf(claims);
      const issuedAtMs = typeof claims.ims === 'number' && Number.isFinite(claims.ims) ? claims.ims : claims.iat * 1000;
      // A sub that is not a uuid would reach the database as a type error (500), and no user has one.
      if (typeof id !== 'string' || !UUID.test(id) || typeof jti !== 'string' || !tenancy) throw unauthorized();
      const workspaceId = tenancy.workspaceId ?? id;
      // Tokens signed with a longer lifetime than configured (the old 7,000-day ones) are not honoured.
      if (exp - Math.floor(issuedAtMs / 1000) > maxLifetime) throw unauthorized();
      const checkedAtGateway = acceptedProofs?.accepts(token, request.headers[TOKEN_CHECKED_HEADER]) ?? false;
      if (!checkedAtGateway && !(await revocations.isValid({ id, jti, issuedAtMs, workspaceId }))) throw unauthorized();
      const scopes = scopesOf(claims.scp);
      const user: AuthenticatedUser = { id, workspaceId, role: tenancy.role, jti, exp, issuedAtMs };
      request.user = scopes ? { ...user, scopes } : user;
      verified.add(request);
      if (claims.own === true) ownWork.add(request);
    });
    // A route's handler runs as the member whose request it answers: what it writes names them (the outbox's
    // actorId), with no domain call passing them down. Routes registered after this plugin, which is every one.
    // A sibling's call as the workspace itself carries the founder's id, yet no member asked for it: no one.
    // Embedded, a sibling's call is answered inside the caller's request (`inject`): a request of no member's
    // leaves the caller's member behind rather than inheriting them.
    if (handlersActAsMember) app.addHook('onRoute', (route) => {
      const handler = route.handler;
      route.handler = function answerAsMember(this: FastifyInstance, request, reply) {
        const member = verified.has(request) && !ownWork.has(request) ? request.user.id : undefined;
        const answer = () => handler.call(this, request, reply);
        return member ? runAsMember(member, answer) : runAsNoOne(answer);
      };
    });
    const proofs = new TokenCheckedProofs(tokens.secret, VERIFIED_TOKENS_CACHED);
    app.decorate('tokenCheckedProof', (request: Pick<FastifyRequest, 'headers'>) => {
      const token = verified.has(request) ? bearerToken(request.headers.authorization) : undefined;
      return token ? proofs.for(token) : undefined;
    });
    const addresses = new KeptProofs((address, now) => clientAddressProof(tokens.secret, address, now), VERIFIED_TOKENS_CACHED);
    app.decorate('clientAddressProof', (request: Pick<FastifyRequest, 'ip'>) => addresses.for(request.ip));
    // Read on demand (the security log), so requests that never ask pay nothing. The gateway, which faces
    // clients, takes no such header: its clients' own addresses are the ones it resolved.
    app.decorateRequest('clientIp', {
      getter(this: FastifyRequest) {
        const signed = acceptTokenCheckedProof ? addressFromProof(tokens.secret, this.headers[CLIENT_ADDRESS_HEADER]) : undefined;
        return signed ?? this.ip;
      },
    });
  },
  { name: 'asistente-auth' },
);

/**
 * The workspace and role a token acts with. A token from before workspaces (no `wid`) acts as the owner of its
 * person's own workspace, which the upgrade made with the person's id; a `wid` without a known role, or
 * either malformed, is no token at all.
 */
function tenancyOf(claims: VerifiedClaims): { workspaceId?: string; role: WorkspaceRole } | undefined {
  if (claims.wid === undefined && claims.role === undefined) return { role: 'owner' };
  if (typeof claims.wid !== 'string' || !UUID.test(claims.wid) || !isWorkspaceRole(claims.role)) return undefined;
  return { workspaceId: claims.wid, role: claims.role };
}

export const SCOPE_REFUSED = 'Este token no tiene permiso para esta operación';

/** The caller's role in the workspace does not reach this route (the role table). */
export const roleRefused = () => new AppError(403, 'ROLE_FORBIDDEN', ROLE_REFUSED);

/** A personal token asked for a route its scopes do not cover, or one no token may reach. */
export const scopeRefused = () => new AppError(403, 'TOKEN_SCOPE', SCOPE_REFUSED);

/**
 * Adds the token check to every route of `app`'s scope except those marked public, and refuses a token
 * exchanged for a personal one (`scp`) on a route the scope table does not open to it: the gateway decided
 * the same on the request's path, and this decides again on the pattern of the route that answers, so a
 * path the gateway misjudged still meets the route's own verdict.
 */
export function requireAuth(app: FastifyInstance): void {
  const prefix = app.prefix;
  app.addHook('onRequest', async (request, reply) => {
    // Read once: Fastify builds the object anew on every read.
    const { config, url: pattern } = request.routeOptions;
    if (config.public) return;
    await app.authenticate(request, reply);
    const { scopes, role } = request.user;
    if (pattern === undefined) return;
    const path = pattern.slice(prefix.length);
    if (!roleAllows(role, request.method, path)) throw roleRefused();
    if (scopes && !scopesAllow(scopes, request.method, path)) throw scopeRefused();
  });
}
