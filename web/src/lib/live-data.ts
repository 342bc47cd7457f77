import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveRefresh } from './live-updates';

export interface LiveData<T> {
  data: T | null;
  /** True until the data for the current key has arrived; live refreshes never set it. */
  loading: boolean;
}

/**
 * Loads `load(key)` when `key` changes and again, quietly, whenever the live stream says the figures changed.
 * The previous data stays on screen meanwhile, and an answer is dropped when a newer one was already shown.
 */
export function useLiveData<T, K extends string>(load: (key: K) => Promise<T>, key: K): LiveData<T> {
  const [shown, setShown] = useState<{ key: K; data: T } | null>(null);
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
      setShown({ key: wanted, data });
    } catch (err) {
      console.error('No se pudieron cargar los datos', err);
    }
  }, []);

  useEffect(() => {
    track.current.key = key;
    void fetchCurrent();
  }, [key, fetchCurrent]);

  useLiveRefresh(fetchCurrent);

  return { data: shown?.data ?? null, loading: shown?.key !== key };
}
