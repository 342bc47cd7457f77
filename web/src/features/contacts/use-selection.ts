import { useEffect, useRef, useState } from 'react';
import type { Contact } from './types';

export interface Selection {
  /** Ids picked one by one (kept across pages). */
  ids: ReadonlySet<string>;
  /** "Select all N matching": every contact of the current search and tag, not just those on screen. */
  allMatching: boolean;
  /** A click; with shift, every row between the last clicked one and this one takes this one's new state. */
  toggle: (contacts: Contact[], index: number, shift: boolean) => void;
  /** The header checkbox: the whole page in or out. */
  togglePage: (contacts: Contact[]) => void;
  selectAllMatching: () => void;
  clear: () => void;
}

/** The list's selection; it starts over whenever `resetKey` (search, tag, order, data version) changes. */
export function useSelection(resetKey: string): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const anchor = useRef<string | null>(null);

  const clear = () => {
    setIds(new Set());
    setAllMatching(false);
    anchor.current = null;
  };
  useEffect(clear, [resetKey]);

  const toggle = (contacts: Contact[], index: number, shift: boolean) => {
    const clicked = contacts[index];
    if (!clicked) return;
    setAllMatching(false);
    setIds((current) => {
      const next = new Set(current);
      const checked = !current.has(clicked.id);
      const from = shift && anchor.current ? contacts.findIndex((c) => c.id === anchor.current) : -1;
      const [start, end] = from === -1 ? [index, index] : [Math.min(from, index), Math.max(from, index)];
      for (const contact of contacts.slice(start, end + 1)) {
        if (checked) next.add(contact.id);
        else next.delete(contact.id);
      }
      return next;
    });
    anchor.current = clicked.id;
  };

  const togglePage = (contacts: Contact[]) => {
    setAllMatching(false);
    setIds((current) => {
      const next = new Set(current);
      const all = contacts.every((c) => current.has(c.id));
      for (const contact of contacts) {
        if (all) next.delete(contact.id);
        else next.add(contact.id);
      }
      return next;
    });
  };

  return { ids, allMatching, toggle, togglePage, selectAllMatching: () => setAllMatching(true), clear };
}
