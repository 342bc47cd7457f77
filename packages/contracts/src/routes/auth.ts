import { WorkspaceMemberList } from '../workspace.js';
import { route } from './route.js';

/** The auth service's routes other services call. */
export const authRoutes = {
  members: route({ service: 'auth', method: 'GET', path: '/workspace/members', response: WorkspaceMemberList }),
};
