import { useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { enterWorkspace } from '../../lib/workspaces';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { acceptInvitation } from './api';

/** A person signed in with the invited address joins with one click (their session proves who they are). */
export function JoinButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  const join = async () => {
    setFailure(null);
    setWaiting(true);
    try {
      enterWorkspace(await acceptInvitation({ token }));
    } catch (err) {
      setFailure(errorMessage(err));
      setWaiting(false);
    }
  };

  return (
    <>
      <Button className="btn-block" disabled={waiting} onClick={() => void join()}>
        {waiting ? 'Uniéndote...' : `Unirme a ${workspaceName}`}
      </Button>
      <FormError message={failure} />
    </>
  );
}
