import { useEffect, useRef, useState } from 'react';
import { connectionState, useReloadOnReconnect } from '../../lib/connection';
import { followEventStream, serialize } from '../../lib/live-updates';
import { INBOX_STREAM_URL, type ConversationPresence } from './api';
import { INBOX_FALLBACK_POLL_MS } from './refresh-interval';

export interface InboxLiveHandlers {
  /**
   * Conversations changed: refetch what shows them. `null` when anything may have changed (the stream just
   * (re)opened, so what happened before it was never announced; or the fallback poll).
   */
  changed: (ids: ReadonlySet<string> | null) => unknown;
  /** Who views and types in a conversation now. */
  presence: (presence: ConversationPresence) => void;
}

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

/**
 * The one place the screen learns that conversations changed: the inbox's live stream, one refresh at a time
 * (ids announced meanwhile are gathered into the next). While the stream is not connected (down, reconnecting,
 * or absent from this deployment) a slow poll stands in, only while the tab is visible and the server
 * reachable. Answers whether the stream is live.
 */
export function useInboxLive(handlers: InboxLiveHandlers): boolean {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const [live, setLive] = useState(false);
  const changed = useRef<(id: string | null) => void>(() => undefined);
  // The stream gave up for good (no such stream here, or signed out): nothing reopens it after an outage.
  const gaveUp = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    let pending = new Set<string>();
    let everything = false;
    const run = serialize(() => {
      const ids = everything ? null : pending;
      pending = new Set();
      everything = false;
      return latest.current.changed(ids);
    }, controller.signal);
    changed.current = (id) => {
      if (id === null) everything = true;
      else pending.add(id);
      run();
    };
    void followEventStream(INBOX_STREAM_URL, controller.signal, {
      onEvent: ({ event, data }) => {
        if (event === 'conversation') {
          const id = parse<{ conversationId?: unknown }>(data)?.conversationId;
          changed.current(typeof id === 'string' ? id : null);
        } else if (event === 'presence') {
          const presence = parse<ConversationPresence>(data);
          if (presence) latest.current.presence(presence);
        }
      },
      onConnection: (open) => {
        setLive(open);
        if (open) changed.current(null);
      },
    }).then(() => {
      gaveUp.current = true;
    });
    return () => controller.abort();
  }, []);

  // A stream that is still trying reopens by itself when the server is back, and refreshes then.
  useReloadOnReconnect(() => gaveUp.current && changed.current(null));

  useEffect(() => {
    if (live) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && connectionState() === 'online') changed.current(null);
    }, INBOX_FALLBACK_POLL_MS);
    return () => clearInterval(timer);
  }, [live]);

  return live;
}
