import { useEffect, useState } from 'react';
import { toast } from '../../lib/toasts';
import { getKeyStatus, NO_KEY, type KeyStatus } from './api';

/** The stored key's status (null while loading); a failed load counts as no key, as the spec says. */
export function useKeyStatus(): [KeyStatus | null, (status: KeyStatus) => void] {
  const [status, setStatus] = useState<KeyStatus | null>(null);
  useEffect(() => {
    let current = true;
    getKeyStatus().then(
      (loaded) => current && setStatus(loaded),
      (err: unknown) => {
        console.error('No se pudo cargar el estado de la API key', err);
        if (!current) return;
        toast.error('No se pudo cargar el estado de la API key');
        setStatus(NO_KEY);
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return [status, setStatus];
}
