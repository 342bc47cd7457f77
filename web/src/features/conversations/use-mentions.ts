import { useCallback, useEffect, useRef, useState } from 'react';
import { getMentions, type Mention } from './api';

export interface Mentions {
  /** Newest first; null until loaded. */
  list: Mention[] | null;
  unseen: number;
  /** Loads them again, quietly (what is shown stays until the answer). */
  refresh: () => Promise<void>;
  /** Opening a conversation sees its mentions on the server: shown at once, before the next refresh. */
  seenIn: (conversationId: string) => void;
}

/** The notes that named me (@Nombre): what «Menciones» lists, and what the browser notices compare. */
export function useMentions(): Mentions {
  const [list, setList] = useState<Mention[] | null>(null);
  // Only the newest request's answer is shown (refreshes overlap when changes come quickly).
  const issued = useRef(0);

  const refresh = useCallback(async () => {
    const seq = ++issued.current;
    try {
      const mentions = await getMentions();
      if (seq === issued.current) setList(mentions);
    } catch (err) {
      console.error('No se pudieron cargar las menciones', err);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const seenIn = useCallback((conversationId: string) => {
    setList((shown) => shown?.map((m) => (m.conversationId === conversationId ? { ...m, seen: true } : m)) ?? null);
  }, []);

  return { list, unseen: list?.filter((m) => !m.seen).length ?? 0, refresh, seenIn };
}
