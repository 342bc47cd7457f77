import { useCallback, useEffect, useRef, useState } from 'react';
import { CONVERSATIONS_PAGE_SIZE } from '@asistente/contracts';
import { useDebounced } from '../../lib/use-debounced';
import { getCounts, listConversations, type AssigneeTab, type InboxConversation, type InboxCounts, type StatusFilter } from './api';

export interface Inbox {
  tab: AssigneeTab;
  setTab: (tab: AssigneeTab) => void;
  status: StatusFilter;
  setStatus: (status: StatusFilter) => void;
  search: string;
  setSearch: (search: string) => void;
  page: number;
  setPage: (page: number) => void;
  rows: InboxConversation[] | null;
  total: number;
  counts: InboxCounts | null;
  /** The last load failed: what is shown (if anything) may be out of date. */
  failed: boolean;
  /** Loads the list and the tabs' counts again, quietly (what is shown stays until the answer). */
  refresh: () => Promise<void>;
  /** A conversation changed here (read, assigned, resolved): shown at once, before the next refresh. */
  patch: (conversation: Partial<InboxConversation> & { id: string }) => void;
}

/** The list of one tab and status filter, searched, 20 a page, with the counts of the three tabs. */
export function useInbox(): Inbox {
  const [tab, setTabState] = useState<AssigneeTab>('any');
  const [status, setStatusState] = useState<StatusFilter>('open');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim(), 300);
  const [rows, setRows] = useState<InboxConversation[] | null>(null);
  const [total, setTotal] = useState(0);
  const [counts, setCounts] = useState<InboxCounts | null>(null);
  const [failed, setFailed] = useState(false);
  // Answers come back out of order when filters change quickly: only the newest request's is shown.
  const issued = useRef(0);

  const refresh = useCallback(async () => {
    const seq = ++issued.current;
    try {
      const [list, tabs] = await Promise.all([
        listConversations({ assignee: tab, status, q }, page, CONVERSATIONS_PAGE_SIZE),
        getCounts(status),
      ]);
      if (seq !== issued.current) return;
      setRows(list.data);
      setTotal(list.pagination.total);
      setCounts(tabs);
      setFailed(false);
    } catch (err) {
      console.error('No se pudieron cargar las conversaciones', err);
      if (seq === issued.current) setFailed(true);
    }
  }, [tab, status, q, page]);

  useEffect(() => setPage(1), [q]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const setTab = useCallback((next: AssigneeTab) => {
    setTabState(next);
    setPage(1);
    setRows(null);
  }, []);
  const setStatus = useCallback((next: StatusFilter) => {
    setStatusState(next);
    setPage(1);
    setRows(null);
  }, []);
  const patch = useCallback((changed: Partial<InboxConversation> & { id: string }) => {
    setRows((list) => list?.map((c) => (c.id === changed.id ? { ...c, ...changed } : c)) ?? null);
  }, []);

  return { tab, setTab, status, setStatus, search, setSearch, page, setPage, rows, total, counts, failed, refresh, patch };
}
