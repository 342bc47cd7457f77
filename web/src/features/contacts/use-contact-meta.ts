import { useEffect, useState } from 'react';
import { getContactStats, getContactTags } from './api';
import type { ContactStats } from './types';

interface ContactMeta {
  stats: ContactStats | null;
  tags: string[];
}

/** Totals and the tag list, reloaded whenever `version` changes. */
export function useContactMeta(version: number): ContactMeta {
  const [meta, setMeta] = useState<ContactMeta>({ stats: null, tags: [] });

  useEffect(() => {
    let current = true;
    Promise.all([getContactStats(), getContactTags()]).then(
      ([stats, tags]) => current && setMeta({ stats, tags }),
      (err: unknown) => console.error('No se pudieron cargar las estadísticas de contactos', err),
    );
    return () => {
      current = false;
    };
  }, [version]);

  return meta;
}
