import type { MemberRole, WorkspaceRole } from '@asistente/contracts';
import { useSession } from './session-state';

/** Each role in the owner's words: a role added to the contracts fails to compile until it has them. */
export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  owner: 'Propietario',
  admin: 'Administrador',
  agent: 'Agente',
};

/** The roles an invitation or a role change may give, in a select's order (the owner is one, and stays so). */
export const MEMBER_ROLES: readonly MemberRole[] = ['admin', 'agent'];

/**
 * What this session's role may do, asked with a screen's own question (e.g. `(role) => roleAllows(role, 'PUT',
 * '/ai/assistant')`): null until the role is known, so a screen offers nothing the server might refuse.
 */
export function usePermissions<T>(permissions: (role: WorkspaceRole) => T): T | null {
  const { workspace } = useSession();
  return workspace ? permissions(workspace.role) : null;
}
