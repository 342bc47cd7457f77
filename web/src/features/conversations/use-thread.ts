import { useCallback, useEffect, useRef, useState } from 'react';
import { CONVERSATION_MESSAGES_PAGE_SIZE } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { getConversation, getOlderEntries, type ConversationContact, type ConversationEntry, type InboxConversation } from './api';
import { withEntry, withNewest } from './thread-entries';

export interface Thread {
  conversation: InboxConversation | null;
  /** The customer's contact, when their number matches one (looked up on each read). */
  contact: ConversationContact | null;
  entries: ConversationEntry[];
  /** Older entries exist on the server («Cargar anteriores»). */
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<void>;
  add: (entry: ConversationEntry) => void;
  /** The conversation as the server answered a change to it. */
  setConversation: (conversation: InboxConversation) => void;
  /** Reads it again (marking it read, as the person sees it): its state and its newest entries. */
  refresh: () => Promise<void>;
  reload: () => void;
}

/** One conversation's thread: its newest entries first, older pages on demand, kept current by `refresh`. */
export function useThread(id: string | null): Thread {
  const [conversation, setConversationState] = useState<InboxConversation | null>(null);
  const [contact, setContact] = useState<ConversationContact | null>(null);
  const [entries, setEntries] = useState<ConversationEntry[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // Bumped by every change made here: a refresh that started before one would show the older state again.
  const changes = useRef(0);
  const current = useRef(id);
  useEffect(() => {
    current.current = id;
  }, [id]);

  useEffect(() => {
    setConversationState(null);
    setContact(null);
    setEntries([]);
    setHasMore(false);
    setFailed(false);
    if (!id) return undefined;
    let live = true;
    setLoading(true);
    getConversation(id).then(
      ({ messages, contact: found, hasMore: older, ...rest }) => {
        if (!live) return;
        setConversationState(rest);
        setContact(found);
        setEntries(messages);
        setHasMore(older);
        setLoading(false);
      },
      (err: unknown) => {
        console.error('No se pudo abrir la conversación', err);
        if (!live) return;
        setFailed(true);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [id, attempt]);

  const refresh = useCallback(async () => {
    if (!id || failed) return;
    const before = changes.current;
    try {
      // `hasMore` speaks of the entries before this page; those loaded already are in `gap`'s care.
      const { messages, contact: found, hasMore: _older, ...rest } = await getConversation(id);
      if (current.current !== id || changes.current !== before) return;
      setConversationState(rest);
      setContact(found);
      setEntries((shown) => {
        const next = withNewest(shown, messages);
        if (next.gap) setHasMore(true);
        return next.entries;
      });
    } catch (err) {
      // Quiet: the next refresh tries again, and the connection banner tells an outage.
      console.error('No se pudo actualizar la conversación', err);
    }
  }, [id, failed]);

  const loadOlder = useCallback(async () => {
    const first = entries[0];
    if (!id || !first || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await getOlderEntries(id, first.id, CONVERSATION_MESSAGES_PAGE_SIZE);
      if (current.current !== id) return;
      setEntries((shown) => [...page.data.filter((e) => !shown.some((s) => s.id === e.id)), ...shown]);
      setHasMore(page.hasMore);
    } catch (err) {
      toast.error(`No se pudieron cargar los mensajes anteriores: ${errorMessage(err)}`);
    } finally {
      setLoadingOlder(false);
    }
  }, [id, entries, loadingOlder]);

  return {
    conversation,
    contact,
    entries,
    hasMore,
    loading,
    failed,
    loadingOlder,
    loadOlder,
    add: useCallback((entry: ConversationEntry) => {
      changes.current += 1;
      setEntries((shown) => withEntry(shown, entry));
    }, []),
    setConversation: useCallback((next: InboxConversation) => {
      changes.current += 1;
      setConversationState(next);
    }, []),
    refresh,
    reload: useCallback(() => setAttempt((n) => n + 1), []),
  };
}
