import { useCallback, useEffect, useRef, useState } from 'react';
import { useConnection, useReloadOnReconnect } from './connection';
import { useLiveRefresh } from './live-updates';

export interface LiveData<T> {
  data: T | null;
  /** True until the data for the current key has arrived; live refreshes never set it. */
  loading: boolean;
  /**
   * What is shown is not known to be current: the last load failed or the server is unreachable. Show the
   * data marked as such (e.g. `<StaleNotice>`), never replace it by zeros.
   */
  stale: boolean;
  /** The last load failed and nothing was ever shown for this key: say the data could not load. */
  failed: boolean;
  /** When the data shown arrived. */
  updatedAt: Date | null;
  /** Loads again now (a "Reintentar" button). */
  reload: () => void;
}

/**
 * Loads `load(key)` when `key` changes and again, quietly, whenever the live stream says the figures changed
 * or the server comes back after an outage. The previous data stays on screen meanwhile (marked stale when a
 * load fails), and an answer is dropped when a newer one was already shown. `load` should throw when it could
 * not load, rather than answer zeros.
 */
export function useLiveData<T, K extends string>(load: (key: K) => Promise<T>, key: K): LiveData<T> {
  const [shown, setShown] = useState<{ key: K; data: T; at: Date } | null>(null);
  const [lastFailed, setLastFailed] = useState(false);
  const connection = useConnection();
  const loadRef = useRef(load);
  const track = useRef({ key, issued: 0, applied: 0 });

  useEffect(() => {
    loadRef.current = load;
  });

  const fetchCurrent = useCallback(async () => {
    const t = track.current;
    const wanted = t.key;
    const seq = ++t.issued;
    try {
      const data = await loadRef.current(wanted);
      if (seq < t.applied || wanted !== t.key) return;
      t.applied = seq;
      setShown({ key: wanted, data, at: new Date() });
      setLastFailed(false);
    } catch (err) {
      console.error('No se pudieron cargar los datos', err);
      if (wanted === t.key && seq >= t.applied) setLastFailed(true);
    }
  }, []);

  useEffect(() => {
    track.current.key = key;
    setLastFailed(false);
    void fetchCurrent();
  }, [key, fetchCurrent]);

  useLiveRefresh(fetchCurrent);
  useReloadOnReconnect(fetchCurrent);

  const current = shown?.key === key;
  return {
    data: shown?.data ?? null,
    loading: !current && !lastFailed,
    stale: shown !== null && (lastFailed || connection === 'offline'),
    failed: lastFailed && !current,
    updatedAt: shown?.at ?? null,
    reload: () => void fetchCurrent(),
  };
}
