import { useEffect, useRef } from 'react';
import { connectionState, useReloadOnReconnect } from '../../lib/connection';
import { INBOX_REFRESH_MS } from './refresh-interval';

/**
 * The one place the screen learns that conversations changed: for now a poll every few seconds while the tab
 * is visible and the server reachable (the connection probe owns the retries while it is down), and once when
 * it is back. A live stream replaces this function and nothing else.
 */
export function useInboxRefresh(refresh: () => unknown): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && connectionState() === 'online') void latest.current();
    }, INBOX_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  useReloadOnReconnect(() => latest.current());
}
