import { authRoutes, type WorkspaceRole } from '@asistente/contracts';
import type { ServiceClient } from '@asistente/kit';

export interface Member {
  userId: string;
  name: string;
  role: WorkspaceRole;
}

/**
 * The workspace's members as auth keeps them, asked each time they matter (an automatic assignment, a
 * message's author): never a copy here that a removal could leave behind.
 */
export class MembersDirectory {
  constructor(private readonly services: ServiceClient) {}

  async list(workspaceId: string): Promise<Member[]> {
    const members = await this.services.call(authRoutes.members, workspaceId);
    return members.map((m) => ({ userId: m.userId, name: `${m.firstName} ${m.lastName}`.trim(), role: m.role }));
  }
}
