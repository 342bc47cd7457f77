import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from './errors';

/** While a consent is under way in another tab, how often the status is asked again. */
const CONNECT_POLL_MS = 3000;

export interface ConnectionStatusState<S> {
  status: S | null;
  error: string | null;
  reload: () => Promise<void>;
  setStatus: (status: S) => void;
  /** True while waiting for a connection another tab is completing. */
  watching: boolean;
  /** Start watching for the connection another tab is completing. */
  watchForConnection: () => void;
}

/**
 * A provider's connection status (Google, Microsoft…), checked on load. After "Conectar" opens the
 * provider's consent in a new tab, it is polled, and checked again when this tab regains focus, until it
 * reports connected. `what` names the provider in the console line of a failed load.
 */
export function useConnectionStatus<S extends { connected: boolean }>(
  load: () => Promise<S>,
  what: string,
): ConnectionStatusState<S> {
  const [status, setStatus] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [watching, setWatching] = useState(false);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    try {
      const loaded = await load();
      if (!mounted.current) return;
      setStatus(loaded);
      setError(null);
      if (loaded.connected) setWatching(false);
    } catch (err) {
      console.error(`No se pudo cargar el estado de ${what}`, err);
      if (mounted.current) setError(errorMessage(err));
    }
  }, [load, what]);

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
