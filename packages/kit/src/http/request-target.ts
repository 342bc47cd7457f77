import type { IncomingMessage } from 'node:http';
import { badUrl } from './errors.js';

/** Characters a path segment may hold as they are (RFC 3986 pchar) once decoded; all else is percent-encoded. */
const KEPT_RAW = /%(3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g;
/** What may make a path mean something else once decoded: an escape, a dot, a fragment, a backslash, a doubled slash. */
const NEEDS_WORK = /[%.#\\]|\/\/|[^\x21-\x7e]/;
/** `/API/...`, `/Api`: the prefix in another case than the routes'. */
const WRONG_CASE_API = /^\/(?!api(?:\/|$))[aA][pP][iI](?:\/|$)/;
/** A separator on other servers (and in URL parsers): no segment may hold one, in any spelling. */
const BACKSLASH = /\\/;

const REFUSED = Symbol('request target refused');
type MarkedRequest = IncomingMessage & { [REFUSED]?: true };

function encodeSegment(decoded: string): string {
  return encodeURIComponent(decoded).replace(KEPT_RAW, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The one spelling of a request's path that routing and every rule of the edge see: each segment decoded once
 * and written again in one way (so `%63onnect` is `connect`, `%2F` stays inside its segment), the fragment
 * and the query cut off, dot-segments resolved, and the `/api` prefix in its own case. Undefined when the
 * path cannot have one meaning: a malformed or overlong escape, a backslash, an empty
 * segment (`//`), a segment whose decoded text climbs (`%2F..%2F`), or a climb above the root.
 */
export function normalisePath(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  if (!NEEDS_WORK.test(path) && !WRONG_CASE_API.test(path)) return path;
  const raw = path.split('/');
  const kept: string[] = [];
  for (let i = 1; i < raw.length; i++) {
    const last = i === raw.length - 1;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw[i]!);
    } catch {
      return undefined;
    }
    // A control character stays in its segment, escaped: the input guard refuses it with its own message.
    if (BACKSLASH.test(decoded)) return undefined;
    if (decoded === '.' || decoded === '..') {
      if (decoded === '..' && kept.pop() === undefined) return undefined;
      if (last) kept.push('');
      continue;
    }
    if (decoded === '' && !last) return undefined;
    if (decoded.includes('/') && decoded.split('/').some((part) => part === '.' || part === '..')) return undefined;
    kept.push(encodeSegment(decoded));
  }
  // Routes are matched in their case: `/API/...` would reach no rule and no route, so it names nothing.
  if (kept[0] !== 'api' && kept[0]?.toLowerCase() === 'api') return undefined;
  return `/${kept.join('/')}`;
}

/** `target` with its path normalised (`normalisePath`) and its fragment dropped; undefined when refused. */
export function normaliseTarget(target: string): string | undefined {
  const query = target.indexOf('?');
  const fragment = target.indexOf('#');
  const pathEnd = Math.min(query === -1 ? target.length : query, fragment === -1 ? target.length : fragment);
  const path = normalisePath(target.slice(0, pathEnd));
  if (path === undefined) return undefined;
  // A `#` before any `?` ends the target: what follows is fragment, never query.
  if (query === -1 || query !== pathEnd) return path;
  return `${path}${target.slice(query, fragment === -1 ? undefined : fragment)}`;
}

/**
 * Fastify's `rewriteUrl`: every request is routed on its normalised target. A refused one keeps its raw
 * target only long enough for `refuseUnnormalisable` to answer 400 before any rule or handler sees it.
 */
export function rewriteToNormalTarget(request: IncomingMessage): string {
  const raw = request.url ?? '/';
  const normal = normaliseTarget(raw);
  if (normal !== undefined) return normal;
  (request as MarkedRequest)[REFUSED] = true;
  return '/';
}

/** The first onRequest hook (synchronous: no promise per request): a target that has no single meaning answers 400. */
export function refuseUnnormalisable(request: { raw: IncomingMessage }, _reply: unknown, done: (error?: Error) => void): void {
  done((request.raw as MarkedRequest)[REFUSED] ? badUrl() : undefined);
}
