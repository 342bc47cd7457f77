import { useCallback, useEffect, useState } from 'react';
import { useReloadOnReconnect } from '../../lib/connection';
import { loadSetupStatus, type SetupStatus } from './setup';

/** What is connected, asked once per visit to the dashboard and again when the server comes back. */
export function useSetupStatus(): SetupStatus | null {
  const [status, setStatus] = useState<SetupStatus | null>(null);
  const load = useCallback(async () => {
    const next = await loadSetupStatus();
    setStatus(next);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  useReloadOnReconnect(load);
  return status;
}
