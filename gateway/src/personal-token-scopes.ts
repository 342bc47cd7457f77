import type { PersonalTokenScope } from '@asistente/contracts';

/** What a route below /api asks of a personal token: a scope, any valid token (`any`), or nothing it can give. */
export type ScopeNeed = PersonalTokenScope | 'any' | undefined;

interface ScopeRule {
  /** The path, or a prefix of it when it ends in `/` (matched at a segment boundary). */
  path: string;
  /** For GET and HEAD. */
  read: ScopeNeed;
  /** For every other method. */
  write: ScopeNeed;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Which scope each route a personal token may reach needs, first match wins. Not listed, refused: the
 * account (/auth, /account: password, tokens, export, deletion), the assistant's settings and provider links
 * (connecting or disconnecting Google, CalDAV, Microsoft, a mailbox or WhatsApp is the owner's own act, logged as such).
 */
const RULES: readonly ScopeRule[] = [
  // Never, whatever the scopes: listed first so no broader rule below can ever cover them.
  { path: '/auth/', read: undefined, write: undefined },
  { path: '/account/', read: undefined, write: undefined },
  { path: '/emails/integrations/', read: undefined, write: undefined },
  { path: '/whatsapp/connect', read: undefined, write: undefined },
  { path: '/whatsapp/disconnect', read: undefined, write: undefined },
  { path: '/whatsapp/logout', read: undefined, write: undefined },
  { path: '/google/redirect', read: undefined, write: undefined },
  { path: '/google/google-calendar/disconnect', read: undefined, write: undefined },
  { path: '/caldav/connect', read: undefined, write: undefined },
  { path: '/caldav/disconnect', read: undefined, write: undefined },
  { path: '/teams/connect', read: undefined, write: undefined },
  { path: '/teams/disconnect', read: undefined, write: undefined },
  { path: '/microsoft/login', read: undefined, write: undefined },
  // The MCP server: any valid token opens it; the token's scopes bound the tools it offers.
  { path: '/mcp/', read: 'any', write: 'any' },
  { path: '/contacts/', read: 'contacts:read', write: 'contacts:write' },
  { path: '/whatsapp/', read: 'whatsapp:read', write: 'whatsapp:send' },
  { path: '/emails/', read: 'emails:read', write: 'emails:send' },
  { path: '/google/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/events/', read: 'calendar:read', write: 'calendar:write' },
  // CalDAV's status and calendar list; its events go through /events.
  { path: '/caldav/', read: 'calendar:read', write: undefined },
  { path: '/msteams/calendar/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/microsoft/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/teams/', read: 'teams:read', write: undefined },
  { path: '/analytics/', read: 'analytics:read', write: undefined },
];

function matches(rule: string, path: string): boolean {
  if (!rule.endsWith('/')) return path === rule || path.startsWith(`${rule}/`);
  return path === rule.slice(0, -1) || path.startsWith(rule);
}

/** The scope a personal token needs for `method` on `path` (below /api, without the query). */
export function scopeNeeded(method: string, path: string): ScopeNeed {
  const rule = RULES.find((r) => matches(r.path, path));
  if (!rule) return undefined;
  return READS.has(method.toUpperCase()) ? rule.read : rule.write;
}

/** Whether a token with `scopes` may make this request. */
export function scopesAllow(scopes: readonly PersonalTokenScope[], method: string, path: string): boolean {
  const need = scopeNeeded(method, path);
  return need === 'any' || (need !== undefined && scopes.includes(need));
}

/** The API reference's word for it: the roles a personal token needs (OpenAPI 3.1), or undefined where tokens never reach. */
export function personalTokenRoles(method: string, path: string): string[] | undefined {
  const need = scopeNeeded(method, path);
  if (need === undefined) return undefined;
  return need === 'any' ? [] : [need];
}
