import type { Static } from '@sinclair/typebox';
import type { TimelineChannel } from './contacts.js';
import type { PersonalTokenScope } from './personal-tokens.js';
import { PathRuleTable } from './path-rule.js';

/** What a route below /api asks of a personal token: a scope, any valid token (`any`), or nothing it can give. */
export type ScopeNeed = PersonalTokenScope | 'any' | undefined;

interface ScopeRule {
  /**
   * The path, or a prefix of it when it ends in `/` (matched at a segment boundary); a `*` segment stands
   * for any one segment.
   */
  path: string;
  /** For GET and HEAD. */
  read: ScopeNeed;
  /** For every other method. */
  write: ScopeNeed;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * The one table of what a personal token reaches, first match wins. The gateway reads it on the normalised
 * path of every request, each service's auth plugin on the pattern of the route that answers, and the API
 * reference shows it. Not listed, refused: the account (/auth, /account: password, tokens, export,
 * deletion), the assistant's settings and provider links (connecting or disconnecting Google, CalDAV,
 * Microsoft, a mailbox or WhatsApp is the owner's own act, logged as such).
 */
const RULES: readonly ScopeRule[] = [
  // Never, whatever the scopes: listed first so no broader rule below can ever cover them.
  { path: '/auth/', read: undefined, write: undefined },
  { path: '/account/', read: undefined, write: undefined },
  { path: '/emails/integrations/', read: undefined, write: undefined },
  { path: '/whatsapp/connect', read: undefined, write: undefined },
  { path: '/whatsapp/disconnect', read: undefined, write: undefined },
  { path: '/whatsapp/logout', read: undefined, write: undefined },
  { path: '/whatsapp/cloud/connect', read: undefined, write: undefined },
  { path: '/whatsapp/cloud/disconnect', read: undefined, write: undefined },
  { path: '/google/redirect', read: undefined, write: undefined },
  { path: '/google/google-calendar/disconnect', read: undefined, write: undefined },
  { path: '/caldav/connect', read: undefined, write: undefined },
  { path: '/caldav/disconnect', read: undefined, write: undefined },
  { path: '/teams/connect', read: undefined, write: undefined },
  { path: '/teams/disconnect', read: undefined, write: undefined },
  { path: '/microsoft/login', read: undefined, write: undefined },
  // Each service's page of "Descargar mis datos": the account's own act, asked by auth with a service token.
  { path: '/*/account-export', read: undefined, write: undefined },
  // What a shorter retention would erase: part of the account's settings, as /account/retention.
  { path: '/*/retention/', read: undefined, write: undefined },
  // The MCP server: any valid token opens it; the token's scopes bound the tools it offers.
  { path: '/mcp/', read: 'any', write: 'any' },
  { path: '/contacts/', read: 'contacts:read', write: 'contacts:write' },
  { path: '/whatsapp/', read: 'whatsapp:read', write: 'whatsapp:send' },
  { path: '/conversations/', read: 'conversations:read', write: 'conversations:write' },
  { path: '/emails/', read: 'emails:read', write: 'emails:send' },
  { path: '/google/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/events/', read: 'calendar:read', write: 'calendar:write' },
  // Video meetings with the provider connected (Google Meet, or Teams: an Outlook event with a join link).
  { path: '/meetings/', read: 'calendar:read', write: 'calendar:write' },
  // CalDAV's status and calendar list; its events go through /events.
  { path: '/caldav/', read: 'calendar:read', write: undefined },
  { path: '/msteams/calendar/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/microsoft/', read: 'calendar:read', write: 'calendar:write' },
  { path: '/teams/', read: 'teams:read', write: undefined },
  { path: '/analytics/', read: 'analytics:read', write: undefined },
];

const SCOPE_TABLE = new PathRuleTable(RULES);

/**
 * The scope a personal token needs for `method` on `path`, below /api and without the query: a request's
 * normalised path or a route's pattern (`/contacts/:id`) alike, since every rule ends at a literal segment.
 */
export function scopeNeeded(method: string, path: string): ScopeNeed {
  const rule = SCOPE_TABLE.first(path);
  if (!rule) return undefined;
  return READS.has(method.toUpperCase()) ? rule.read : rule.write;
}

/** Whether a token with `scopes` may make this request. */
export function scopesAllow(scopes: readonly PersonalTokenScope[], method: string, path: string): boolean {
  const need = scopeNeeded(method, path);
  return need === 'any' || (need !== undefined && scopes.includes(need));
}

/**
 * Whether a caller may see data of `scope`'s area in a read model that joins several areas: a session (no
 * scopes) sees every area, a personal token only those its scopes name. The contact timeline, the MCP tools
 * and the mail variables filled from a contact all ask this, so none widens what a token reaches.
 */
export function scopesCover(scopes: readonly PersonalTokenScope[] | undefined, scope: PersonalTokenScope): boolean {
  return scopes === undefined || scopes.includes(scope);
}

/** The area whose scope a contact timeline's section needs: a `contacts:read` token alone sees none of them. */
export const TIMELINE_SECTION_SCOPES: Readonly<Record<Static<typeof TimelineChannel>, PersonalTokenScope>> = {
  whatsapp: 'whatsapp:read',
  email: 'emails:read',
  calendar: 'calendar:read',
};

/** The API reference's word for it: the roles a personal token needs (OpenAPI 3.1), or undefined where tokens never reach. */
export function personalTokenRoles(method: string, path: string): string[] | undefined {
  const need = scopeNeeded(method, path);
  if (need === undefined) return undefined;
  return need === 'any' ? [] : [need];
}
