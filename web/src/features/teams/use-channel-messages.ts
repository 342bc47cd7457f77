import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { getMessages, type TeamsMessage } from './api';

/** How often the open channel is asked for new messages while this tab is visible. */
export const MESSAGE_POLL_MS = 5000;

/**
 * The open channel's messages, refreshed by polling so messages written in Teams appear without a reload.
 * A poll that fails keeps what is on screen and says it could not refresh; a first load that fails says so.
 */
export function useChannelMessages(channelId: string | null) {
  const [messages, setMessages] = useState<TeamsMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(async (id: string) => {
    if (inFlight.current) return;
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const list = await getMessages(id, controller.signal);
      if (controller.signal.aborted) return;
      setMessages(list);
      setError(null);
    } catch (err) {
      if (controller.signal.aborted) return;
      console.error('No se pudieron cargar los mensajes del canal', err);
      setError(errorMessage(err));
    } finally {
      if (inFlight.current === controller) inFlight.current = null;
    }
  }, []);

  useEffect(() => {
    setMessages(null);
    setError(null);
    if (!channelId) return undefined;
    void refresh(channelId);
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh(channelId);
    }, MESSAGE_POLL_MS);
    return () => {
      clearInterval(timer);
      inFlight.current?.abort();
      inFlight.current = null;
    };
  }, [channelId, refresh]);

  /** A message just sent shows at once, before the next poll brings it back from Teams. */
  const append = (message: TeamsMessage) => setMessages((list) => (list && !list.some((m) => m.id === message.id) ? [...list, message] : list));

  return { messages, error, append };
}
