import {
  roleAllows,
  type CreateInvitationBody,
  type MemberRole,
  type Workspace,
  type WorkspaceInvitation,
  type WorkspaceInvitationList,
  type WorkspaceMember,
  type WorkspaceMemberList,
  type WorkspaceRole,
} from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';
import { timeAgo } from '../../lib/time-ago';

export const renameWorkspace = (name: string) => sendJson<Workspace>('patch', 'workspace', { name });

export const fetchMembers = () => getJson<WorkspaceMemberList>('workspace/members');

const memberPath = (userId: string) => `workspace/members/${encodeURIComponent(userId)}`;

export const changeMemberRole = (userId: string, role: MemberRole) => sendJson<WorkspaceMember>('patch', memberPath(userId), { role });

export const removeMember = (userId: string) => sendDelete(memberPath(userId));

export const fetchInvitations = () => getJson<WorkspaceInvitationList>('workspace/invitations');

export const createInvitation = (body: CreateInvitationBody) => sendJson<WorkspaceInvitation>('post', 'workspace/invitations', body);

export const cancelInvitation = (id: string) => sendDelete(`workspace/invitations/${encodeURIComponent(id)}`);

/** What the caller may do here: the contracts' role table, the same one the gateway and the services apply. */
export function teamPermissions(role: WorkspaceRole) {
  return {
    rename: roleAllows(role, 'PATCH', '/workspace'),
    invite: roleAllows(role, 'POST', '/workspace/invitations'),
    seeInvitations: roleAllows(role, 'GET', '/workspace/invitations'),
    manageMembers: roleAllows(role, 'PATCH', '/workspace/members/:userId') && roleAllows(role, 'DELETE', '/workspace/members/:userId'),
  };
}

export type TeamPermissions = ReturnType<typeof teamPermissions>;

export const memberName = (member: Pick<WorkspaceMember, 'firstName' | 'lastName'>) => `${member.firstName} ${member.lastName}`.trim();

export const formatLastActive = (member: WorkspaceMember, now = Date.now()) => (member.lastActiveAt ? timeAgo(member.lastActiveAt, now) : 'Nunca');

const DATE = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium' });

export const formatInvitationExpiry = (invitation: Pick<WorkspaceInvitation, 'expiresAt'>) => `Caduca el ${DATE.format(new Date(invitation.expiresAt))}`;
