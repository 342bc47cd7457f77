import { useEffect, useState } from 'react';
import type { InvitationPreview } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { fetchInvitation } from './api';

export type InvitationLoad = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; invitation: InvitationPreview };

export function useInvitation(token: string): InvitationLoad {
  const [load, setLoad] = useState<InvitationLoad>({ state: 'loading' });
  useEffect(() => {
    if (!token) return undefined;
    let current = true;
    setLoad({ state: 'loading' });
    fetchInvitation(token)
      .then((invitation) => current && setLoad({ state: 'ready', invitation }))
      .catch((err: unknown) => current && setLoad({ state: 'failed', message: errorMessage(err) }));
    return () => {
      current = false;
    };
  }, [token]);
  return load;
}
