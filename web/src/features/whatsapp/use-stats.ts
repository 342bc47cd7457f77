import { useEffect, useState } from 'react';
import { getStats, type WhatsAppStats } from './api';

/** The figures, or null with `failed` when they could not load (never zeros shown as true). */
export function useStats(version: unknown): { stats: WhatsAppStats | null; failed: boolean } {
  const [stats, setStats] = useState<WhatsAppStats | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    getStats().then(
      (loaded) => {
        if (!current) return;
        setStats(loaded);
        setFailed(false);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar las estadísticas de WhatsApp', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [version]);
  return { stats, failed };
}
