import type { AcceptInvitationBody, InvitationPreview } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';
import type { AuthResult } from '../../lib/types';

/** Public: who invites, to which workspace, as what; an unknown, spent or expired link is a 404 with the server's sentence. */
export const fetchInvitation = (token: string) => getJson<InvitationPreview>(`auth/invitations/${encodeURIComponent(token)}`);

/** `{ token }` alone with the invited person's session; a new person adds their name and a password, without one. */
export const acceptInvitation = (body: AcceptInvitationBody) => sendJson<AuthResult>('post', 'auth/invitations/accept', body);
