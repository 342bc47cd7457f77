import { randomUUID } from 'node:crypto';
import type { Workspace } from '@asistente/contracts';
import type { App } from '@asistente/kit';

/** Signs a session of the person `userId` acting in `workspace`, with their role there. */
export type SessionIssuer = (userId: string, workspace: Workspace) => string;

export function sessionIssuer(app: App): SessionIssuer {
  // `ims`: issued at, in milliseconds, so a password change ends exactly the sessions opened before it.
  return (userId, workspace) => app.jwt.sign({ sub: userId, wid: workspace.id, role: workspace.role, jti: randomUUID(), ims: Date.now() });
}
