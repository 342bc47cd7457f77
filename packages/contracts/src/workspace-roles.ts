import { Type, type Static } from '@sinclair/typebox';
import { PathRuleTable } from './path-rule.js';

/** Who a member is in a workspace: one owner, any number of admins and agents. */
export const WorkspaceRoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('agent')]);
export type WorkspaceRole = Static<typeof WorkspaceRoleSchema>;
/** Highest first. */
export const WORKSPACE_ROLES: readonly WorkspaceRole[] = WorkspaceRoleSchema.anyOf.map((literal) => literal.const);

export const ROLE_REFUSED = 'No tienes permiso para esta acción';

const EVERYONE: readonly WorkspaceRole[] = WORKSPACE_ROLES;
const MANAGERS: readonly WorkspaceRole[] = ['owner', 'admin'];
const OWNER: readonly WorkspaceRole[] = ['owner'];

interface RoleRule {
  /** Matched as the scope table matches (`PathRuleTable`): the path and every path below it. */
  path: string;
  /** For GET and HEAD. */
  read: readonly WorkspaceRole[];
  /** For every other method. */
  write: readonly WorkspaceRole[];
}

const READS = new Set(['GET', 'HEAD']);

/**
 * The one table of what each role may do, first match wins; a path not listed is open to every member (the
 * shared data an agent works: contacts, the WhatsApp inbox and sending, templates, the assistant's answers,
 * analytics; and each member's own mailboxes, calendars, Teams link and personal tokens). The gateway reads it
 * on the normalised path of every request, each service's auth plugin on the pattern of the route that
 * answers, and the API reference shows it (`x-roles`).
 */
export const ROLE_RULES: readonly RoleRule[] = [
  // The workspace itself: its name and members are managed by admins; ownership moves only by the owner.
  { path: '/workspace/transfer', read: OWNER, write: OWNER },
  { path: '/workspace/invitations/', read: MANAGERS, write: MANAGERS },
  { path: '/workspace/members/', read: EVERYONE, write: MANAGERS },
  { path: '/workspace', read: EVERYONE, write: MANAGERS },
  // The workspace's data rights. "Descargar mis datos" is everyone's: the owner's holds the workspace, a
  // member's their profile, mail, calendars and actions (the auth service decides). The services' pages of the
  // shared data are the owner's export alone; mail and calendars are each person's own. Anyone may delete their
  // own account (it leaves every workspace; one they own with others in it is transferred first).
  { path: '/emails/account-export', read: EVERYONE, write: EVERYONE },
  { path: '/events/account-export', read: EVERYONE, write: EVERYONE },
  { path: '/*/account-export', read: OWNER, write: OWNER },
  { path: '/account/retention', read: EVERYONE, write: MANAGERS },
  // What a shorter retention would erase: asked by whoever may change it.
  { path: '/*/retention/preview', read: MANAGERS, write: MANAGERS },
  { path: '/account/activity', read: MANAGERS, write: MANAGERS },
  // The workspace's connections and the assistant's settings.
  { path: '/whatsapp/connect', read: MANAGERS, write: MANAGERS },
  { path: '/whatsapp/disconnect', read: MANAGERS, write: MANAGERS },
  { path: '/whatsapp/logout', read: MANAGERS, write: MANAGERS },
  // The official Cloud API's number: connected and disconnected by managers; its templates are everyone's to send.
  { path: '/whatsapp/cloud/connect', read: MANAGERS, write: MANAGERS },
  { path: '/whatsapp/cloud/disconnect', read: MANAGERS, write: MANAGERS },
  { path: '/whatsapp/auto-replies/', read: EVERYONE, write: MANAGERS },
  { path: '/ai/provider/', read: EVERYONE, write: MANAGERS },
  { path: '/ai/assistant', read: EVERYONE, write: MANAGERS },
  { path: '/webhooks/', read: MANAGERS, write: MANAGERS },
  { path: '/conversations/settings', read: EVERYONE, write: MANAGERS },
  // The website chat's settings (its visitors' own routes below it are public: no role is asked there).
  { path: '/widget', read: MANAGERS, write: MANAGERS },
  // Removing contacts many at a time.
  { path: '/contacts/bulk/delete', read: MANAGERS, write: MANAGERS },
];

const ROLE_TABLE = new PathRuleTable(ROLE_RULES);

/**
 * The roles that may make `method` on `path` (below /api, without the query: a request's normalised path or a
 * route's pattern alike).
 */
export function rolesAllowed(method: string, path: string): readonly WorkspaceRole[] {
  const rule = ROLE_TABLE.first(path);
  if (!rule) return EVERYONE;
  return READS.has(method.toUpperCase()) ? rule.read : rule.write;
}

export function roleAllows(role: WorkspaceRole, method: string, path: string): boolean {
  return rolesAllowed(method, path).includes(role);
}

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return (WORKSPACE_ROLES as readonly unknown[]).includes(value);
}
