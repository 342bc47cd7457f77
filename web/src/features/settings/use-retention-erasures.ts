import { useCallback, useEffect, useRef, useState } from 'react';
import type { RetentionSettings } from '@asistente/contracts';
import { fetchRetentionPreview, isShorter, RETENTION_FIELDS, type RetentionKey } from './retention';

/** What a shorter period would erase: how many rows, `null` when the service could not say, `undefined` while asked. */
export interface Erasure {
  key: RetentionKey;
  days: number;
  count: number | null | undefined;
}

/**
 * The erasures the chosen periods would cause against the saved ones, each service asked once per number of
 * days. `erasures`: as known now, for the warnings under the fields; `settle()`: every count, for the
 * confirmation asked before saving (a click may come before the answers).
 */
export function useRetentionErasures(saved: RetentionSettings | null, chosen: RetentionSettings | null) {
  const asked = useRef(new Map<string, Promise<number | null>>());
  const [known, setKnown] = useState<Record<string, number | null>>({});

  const ask = useCallback((service: string, days: number): Promise<number | null> => {
    const id = `${service}:${days}`;
    let answer = asked.current.get(id);
    if (!answer) {
      answer = fetchRetentionPreview(service, days).catch((err: unknown) => {
        console.error('No se pudo calcular cuánto se borraría', err);
        return null;
      });
      asked.current.set(id, answer);
      void answer.then((count) => setKnown((k) => ({ ...k, [id]: count })));
    }
    return answer;
  }, []);

  const shorter = saved && chosen ? RETENTION_FIELDS.flatMap((f) => (isShorter(saved[f.key], chosen[f.key]) ? [{ ...f, days: chosen[f.key] as number }] : [])) : [];
  const wanted = shorter.map((f) => `${f.service}:${f.days}`).join(',');

  useEffect(() => {
    for (const id of wanted ? wanted.split(',') : []) {
      const [service, days] = id.split(':');
      void ask(service!, Number(days));
    }
  }, [wanted, ask]);

  const erasures: Erasure[] = shorter.map((f) => ({ key: f.key, days: f.days, count: known[`${f.service}:${f.days}`] }));
  const settle = async (): Promise<Erasure[]> => Promise.all(shorter.map(async (f) => ({ key: f.key, days: f.days, count: await ask(f.service, f.days) })));
  return { erasures, settle };
}
