import { useEffect, useState } from 'react';
import { listContacts } from './api';
import type { ContactPage, ContactQuery } from './types';

interface ContactListState {
  data: ContactPage | null;
  loading: boolean;
  failed: boolean;
}

/** The page of contacts for a query; `version` forces a reload after a change. */
export function useContactList(query: ContactQuery, version: number): ContactListState {
  const [state, setState] = useState<ContactListState>({ data: null, loading: true, failed: false });
  const { page, search, tag, order } = query;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    listContacts({ page, search, tag, order }, controller.signal).then(
      (data) => setState({ data, loading: false, failed: false }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.error('No se pudieron cargar los contactos', err);
        setState((s) => ({ ...s, loading: false, failed: true }));
      },
    );
    return () => controller.abort();
  }, [page, search, tag, order, version]);

  return state;
}
