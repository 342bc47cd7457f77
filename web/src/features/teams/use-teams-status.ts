import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { getStatus, type TeamsStatus } from './api';

/** While the consent is under way in another tab, how often the status is asked again. */
const CONNECT_POLL_MS = 3000;

/**
 * The Microsoft connection status (spec: checked on load). After "Conectar" opens Microsoft in a new tab,
 * it is polled, and checked again when this tab regains focus, until it reports connected.
 */
export function useTeamsStatus() {
  const [status, setStatus] = useState<TeamsStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [watching, setWatching] = useState(false);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    try {
      const loaded = await getStatus();
      if (!mounted.current) return;
      setStatus(loaded);
      setError(null);
      if (loaded.connected) setWatching(false);
    } catch (err) {
      console.error('No se pudo cargar el estado de Microsoft Teams', err);
      if (mounted.current) setError(errorMessage(err));
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  useEffect(() => {
    if (!watching) return undefined;
    const timer = setInterval(() => void reload(), CONNECT_POLL_MS);
    const onFocus = () => void reload();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [watching, reload]);

  return { status, error, reload, setStatus, watching, watchForConnection: () => setWatching(true) };
}
