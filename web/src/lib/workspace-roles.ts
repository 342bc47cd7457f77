import type { MemberRole, WorkspaceRole } from '@asistente/contracts';

/** Each role in the owner's words: a role added to the contracts fails to compile until it has them. */
export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  owner: 'Propietario',
  admin: 'Administrador',
  agent: 'Agente',
};

/** The roles an invitation or a role change may give, in a select's order (the owner is one, and stays so). */
export const MEMBER_ROLES: readonly MemberRole[] = ['admin', 'agent'];
