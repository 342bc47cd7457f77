import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toasts';
import { getMessages, type WhatsAppMessage } from './api';

/** Spec section 9: 30 messages a page in the conversation view. */
export const CHAT_PAGE = 30;
/** While a message of ours is still pending, its status is re-read this often. */
const PENDING_REFRESH_MS = 3_000;

/** Oldest first, one entry per id (pages overlap when new messages arrive between loads). */
function merge(current: WhatsAppMessage[], incoming: WhatsAppMessage[]): WhatsAppMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.seq - b.seq);
}

export interface ChatHistory {
  messages: WhatsAppMessage[];
  loading: boolean;
  failed: boolean;
  hasMore: boolean;
  loadOlder: () => Promise<boolean>;
  add: (message: WhatsAppMessage) => void;
  replace: (tempId: string, message: WhatsAppMessage | null) => void;
}

/** A chat's history: page 1 (newest) first, older pages on demand; a full page means more may exist. */
export function useChatHistory(jid: string): ChatHistory {
  const [messages, setMessages] = useState<WhatsAppMessage[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const page = useRef(1);
  const busy = useRef(false);

  useEffect(() => {
    let current = true;
    page.current = 1;
    setMessages([]);
    setLoading(true);
    getMessages(jid, 1, CHAT_PAGE).then(
      (answer) => {
        if (!current) return;
        setMessages(merge([], answer.data));
        setHasMore(answer.data.length === CHAT_PAGE);
        setFailed(false);
        setLoading(false);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar mensajes', err);
        if (!current) return;
        setFailed(true);
        setLoading(false);
        toast.error('No se pudieron cargar mensajes');
      },
    );
    return () => {
      current = false;
    };
  }, [jid]);

  const loadOlder = useCallback(async () => {
    if (busy.current || !hasMore) return false;
    busy.current = true;
    try {
      const answer = await getMessages(jid, page.current + 1, CHAT_PAGE);
      page.current += 1;
      setMessages((list) => merge(list, answer.data));
      setHasMore(answer.data.length === CHAT_PAGE);
      return answer.data.length > 0;
    } catch (err) {
      console.error('No se pudieron cargar mensajes', err);
      toast.error('No se pudieron cargar mensajes');
      return false;
    } finally {
      busy.current = false;
    }
  }, [jid, hasMore]);

  // Our messages move pending → sent → delivered → read on the server: re-read the newest page while one waits.
  const waiting = messages.some((m) => m.type === 'outgoing' && m.status === 'pending' && !m.id.startsWith('tmp-'));
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setInterval(() => {
      getMessages(jid, 1, CHAT_PAGE).then(
        (answer) => setMessages((list) => merge(list, answer.data)),
        () => undefined,
      );
    }, PENDING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, jid]);

  return {
    messages,
    loading,
    failed,
    hasMore,
    loadOlder,
    add: (message) => setMessages((list) => merge(list, [message])),
    replace: (tempId, message) =>
      setMessages((list) => {
        const rest = list.filter((m) => m.id !== tempId);
        return message ? merge(rest, [message]) : rest;
      }),
  };
}
