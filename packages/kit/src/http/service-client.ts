import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { routePath, type RouteAnswer, type RouteDescriptor, type RouteMethod, type RouteParts, type WorkspaceRole } from '@asistente/contracts';
import type { ActingMember, TokenSettings } from '../auth/plugin.js';
import { withDeadline } from '../deadline.js';
import { currentTraceparent } from '../observability/tracing/trace-context.js';
import { readSettings, type SettingsSource } from '../settings.js';
import { answerProblem, bodyRefusal } from './answer-check.js';
import { errorBody } from './errors.js';
import { serviceUrls, serviceUrlVariable } from './service-urls.js';

type QueryValues = Record<string, string | number | boolean | undefined>;

/** What one call sends besides the route: its path values, query and body (typed by the route), and its wait. */
export type CallOptions<D extends RouteDescriptor> = RouteParts<D> & {
  /** Default 5 s: a tool or a sync never waits longer on a sibling. */
  timeoutMs?: number;
};

/** The options may be left out when the route needs no path values and no body. */
export type CallArguments<D extends RouteDescriptor> = object extends RouteParts<D> ? [options?: CallOptions<D>] : [options: CallOptions<D>];

/** A sibling service answered with an error status, or could not be reached (statusCode 503). */
export class ServiceCallError extends Error {
  constructor(
    readonly service: string,
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    super(`${service} answered ${statusCode}`);
    this.name = 'ServiceCallError';
  }
}

/** What a caller logs a wrong answer with (the platform's logger fits). */
export interface AnswerLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * A sibling answered 2xx with something its contract does not describe (a renamed field, a missing one): a
 * clear failure, never a silently wrong value. A 502, so callers treat it as the sibling failing on its side.
 */
export class ServiceAnswerError extends ServiceCallError {
  constructor(
    service: string,
    readonly path: string,
    readonly problem: string,
  ) {
    super(service, 502, { message: `La respuesta del servicio ${service} no tiene la forma acordada` });
    this.message = `${service} ${path} answered outside its contract: ${problem}`;
    this.name = 'ServiceAnswerError';
  }
}

/** An in-process request, as `app.inject` takes and answers it (embedded topology and tests). */
export type InjectFn = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}) => Promise<{ statusCode: number; body: string }>;

/**
 * Who a sibling call acts for. A member acting in a workspace (a request of theirs led to the call): the
 * sibling sees that person, workspace and role, so the role table and their personal data apply as to
 * their own requests. A workspace id alone: the workspace acting on its own behalf (the assistant answering
 * a customer, a consumer, the export), under its founder's id, which the workspace carries, and as no member:
 * what the sibling writes for it names no one (`currentMemberId()` is undefined there), not the founder.
 */
export type ServiceCaller = string | MemberCaller;

export interface MemberCaller {
  workspaceId: string;
  actorId: string;
  role: WorkspaceRole;
}

/** The member of an authenticated request, as the calls it leads to present it. */
export function callerOf(user: ActingMember): MemberCaller {
  return { workspaceId: user.workspaceId, actorId: user.id, role: user.role };
}

/** The workspace whose data a call is about, whoever makes it. */
export function workspaceOf(caller: ServiceCaller): string {
  return typeof caller === 'string' ? caller : caller.workspaceId;
}

function claimsOf(caller: ServiceCaller): { sub: string; wid?: string; role?: WorkspaceRole; own?: true } {
  return typeof caller === 'string' ? { sub: caller, own: true } : { sub: caller.actorId, wid: caller.workspaceId, role: caller.role };
}

/** Lifetime of the token a service presents for a user: long enough for one call, useless if it leaks. */
const CALL_TOKEN_TTL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * How a service asks a sibling for a user's data: over HTTP with a short-lived
 * token scoped to that user, never through the sibling's schema. Embedded, the
 * siblings live in this process and the request goes through `inject` (same
 * routes, same checks, no socket); distributed, it goes to `<NAME>_URL`, named after the route's service
 * (`contacts` → `CONTACTS_URL`), so any service a route descriptor names can be asked.
 */
export class ServiceClient {
  private inject: InjectFn | undefined;
  private turn = 0;
  private readonly urls = new Map<string, string | undefined>();
  private readonly sign: (payload: Record<string, unknown>) => string;

  constructor(
    /** Where `<NAME>_URL` is read from: the platform's settings source. */
    private readonly source: SettingsSource,
    tokens: TokenSettings,
    private readonly log?: AnswerLog,
  ) {
    this.sign = createSigner({
      key: tokens.secret,
      algorithm: 'HS256',
      iss: tokens.issuer,
      aud: tokens.audience,
      expiresIn: CALL_TOKEN_TTL_MS,
    });
  }

  /** Routes calls to the app that mounts every service under /api (the embedded gateway, a test app). */
  attachInProcess(inject: InjectFn): void {
    this.inject = inject;
  }

  /** Whether `service` can be asked at all here (mounted in this process, or its URL configured). */
  available(service: string): boolean {
    return this.inject !== undefined || this.baseUrl(service) !== undefined;
  }

  /**
   * Asks a sibling for one of its routes, as `route` describes it (`packages/contracts/src/routes`): the path
   * is built from `params`, the body is checked against the route's body schema before it leaves (a wrong one
   * is refused as the route would refuse it, a `ServiceCallError` 400), and the answer is checked against the route's response schema: the value
   * returned is exactly that shape, or the call fails with a `ServiceAnswerError` (logged here, with the first
   * mismatch and no values).
   */
  async call<D extends RouteDescriptor>(route: D, caller: ServiceCaller, ...[options]: CallArguments<D>): Promise<RouteAnswer<D>> {
    const { service } = route;
    const { params, query, body, timeoutMs } = (options ?? {}) as CallOptions<RouteDescriptor>;
    if (route.body !== undefined) {
      // A body often carries what a member or a tool typed: one the route would refuse is refused here, as the
      // route would answer it (its 400 and Spanish sentence), and never sent.
      const refusal = bodyRefusal(route.body, body);
      if (refusal !== undefined) throw new ServiceCallError(service, 400, errorBody(400, 'VALIDATION_ERROR', refusal));
    }
    const path = routePath(route.path, params ?? {});
    const answer = await this.send(service, caller, route.method, path, { query: query as QueryValues | undefined, body, timeoutMs });
    const problem = answerProblem(route.response, answer);
    if (problem === undefined) return answer as RouteAnswer<D>;
    this.log?.error({ service, path: route.path, problem }, 'a sibling answered outside its contract');
    throw new ServiceAnswerError(service, route.path, problem);
  }

  private async send(service: string, caller: ServiceCaller, method: RouteMethod, path: string, options: { query?: QueryValues; body?: unknown; timeoutMs?: number }): Promise<unknown> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.sign({ ...claimsOf(caller), jti: randomUUID(), ims: Date.now() })}`,
      accept: 'application/json',
    };
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const target = `${path}${queryString(options.query)}`;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    // In-process the sibling's server span continues this trace (over HTTP, fetch's own span carries it).
    const traceparent = this.inject ? currentTraceparent() : undefined;
    if (traceparent) headers.traceparent = traceparent;
    const answer = this.inject
      ? await withDeadline(this.inject({ method, url: `/api${target}`, headers, payload }), timeoutMs).catch(() => undefined)
      : await this.fetch(service, target, { method, headers, body: payload }, timeoutMs);
    if (!answer) throw new ServiceCallError(service, 503, undefined);
    // A 204 answers nothing: null, as its route's Type.Null() declares.
    const body: unknown = answer.statusCode === 204 ? null : answer.body === '' ? undefined : safeJson(answer.body);
    if (answer.statusCode >= 400) throw new ServiceCallError(service, answer.statusCode, body);
    return body;
  }

  private async fetch(
    service: string,
    target: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutMs: number,
  ): Promise<{ statusCode: number; body: string } | undefined> {
    const replicas = this.replicas(service);
    // Spread over the replicas, starting at a different one each call; the next is tried only when one refused
    // the connection (it surely did not get the request), so a write is never applied twice.
    const first = this.turn++;
    for (let i = 0; i < replicas.length; i++) {
      const base = replicas[(first + i) % replicas.length]!;
      try {
        const response = await fetch(`${base}${target}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        return { statusCode: response.status, body: await response.text() };
      } catch (error) {
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') return undefined;
      }
    }
    return undefined;
  }

  /** `<NAME>_URL` may list several replicas, comma-separated (as the gateway reads it). */
  private replicas(service: string): string[] {
    return (this.baseUrl(service) ?? '')
      .split(',')
      .map((url) => url.trim().replace(/\/$/, ''))
      .filter(Boolean);
  }

  /** Checked by the boot when the process declared its siblings; here too, so an undeclared one is never unchecked. */
  private baseUrl(service: string): string | undefined {
    if (!this.urls.has(service)) this.urls.set(service, readSettings(serviceUrls([service]), this.source)[serviceUrlVariable(service)]);
    return this.urls.get(service);
  }
}

function queryString(query: QueryValues | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
