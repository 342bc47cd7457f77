import { useEffect, useRef } from 'react';
import { connectionState, reportServerReached, reportServerUnreachable, whenOnline } from './connection';
import { EventStreamParser, type ServerEvent } from './event-stream';
import { onUnauthorized } from './http';
import { getToken } from './session-state';

const ANALYTICS_STREAM_URL = '/api/analytics/stream';
const DEFAULT_RETRY_MS = 3000;
const MAX_RETRY_MS = 60_000;

/** After a connection: try again later, or never (signed out, or no stream in this deployment). */
type Outcome = 'reconnect' | 'stop';

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** One connection, read until it ends. EventSource cannot send the bearer token, hence fetch. */
async function readStream(url: string, token: string, parser: EventStreamParser, onEvent: (e: ServerEvent) => void, signal: AbortSignal): Promise<Outcome> {
  let response: Response;
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
  if (parser.lastEventId) headers['Last-Event-ID'] = parser.lastEventId;
  try {
    response = await fetch(url, { headers, cache: 'no-store', signal });
  } catch {
    if (!signal.aborted) reportServerUnreachable();
    return 'reconnect';
  }
  reportServerReached();
  if (response.status === 401) {
    onUnauthorized(url);
    return 'stop';
  }
  // No such stream in this deployment: nothing will ever arrive.
  if (response.status === 404) return 'stop';
  if (!response.ok || !response.body) return 'reconnect';
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'reconnect';
      parser.push(value).forEach(onEvent);
    }
  } catch {
    return 'reconnect';
  }
}

export interface FollowStreamOptions {
  /** Every event as it arrives (comments and `retry:` lines are handled here). */
  onEvent: (event: ServerEvent) => void;
  /**
   * Called once a connection is open again after one was lost: whatever happened meanwhile was never
   * announced, so reload a fresh snapshot here (the server also gets `Last-Event-ID` when it sent ids).
   * A connection counts as open at its first event (send a `ready` event first, as the analytics stream does).
   */
  onResume?: () => void;
  /**
   * Told `true` when a connection opens (its first event) and `false` when it ends: a screen that otherwise
   * polls can stop while the stream is live.
   */
  onConnection?: (open: boolean) => void;
}

/**
 * Follows a `text/event-stream` endpoint of the API with the user's bearer token until `signal` aborts:
 * reconnects after the server's `retry:`, doubled (with jitter) on each failed attempt up to 60 s; while the
 * server is unreachable it waits for lib/connection's probe instead of retrying on its own, and resumes at
 * once when the server is back. A 401 applies the 401 rule; a 404 stops quietly.
 */
export async function followEventStream(url: string, signal: AbortSignal, { onEvent, onResume, onConnection }: FollowStreamOptions): Promise<void> {
  let attempts = 0;
  let everOpen = false;
  let retryMs = DEFAULT_RETRY_MS;
  const parser = new EventStreamParser();
  while (!signal.aborted) {
    const token = getToken();
    if (!token) return;
    let openNow = false;
    const outcome = await readStream(
      url,
      token,
      parser,
      (event) => {
        if (!openNow) {
          openNow = true;
          attempts = 0;
          onConnection?.(true);
          if (everOpen) onResume?.();
          everOpen = true;
        }
        onEvent(event);
      },
      signal,
    );
    if (openNow) onConnection?.(false);
    if (outcome === 'stop') return;
    retryMs = parser.retryMs ?? retryMs;
    const backoff = Math.min(retryMs * 2 ** attempts, MAX_RETRY_MS) * (1 + Math.random() * 0.2);
    attempts += 1;
    if (connectionState() === 'offline') {
      // Down: the connection probe finds out when it is back (one probe for the whole app, no storm);
      // then reconnect soon, spread a little so many tabs do not arrive at the same instant.
      await whenOnline(signal);
      await wait(Math.random() * 500, signal);
    } else {
      await wait(openNow ? retryMs : backoff, signal);
    }
  }
}

/** At most one refresh in flight: signals arriving meanwhile collapse into a single run after it. */
export function serialize(task: () => unknown, signal: AbortSignal): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    try {
      await task();
    } catch (err) {
      console.error('No se pudieron actualizar los datos en vivo', err);
    }
    running = false;
    if (again && !signal.aborted) {
      again = false;
      void run();
    }
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

/**
 * While the calling screen is mounted, runs `refresh` whenever the server says the user's figures changed
 * (GET /api/analytics/stream), and once more after the stream comes back from an outage or a restart.
 */
export function useLiveRefresh(refresh: () => unknown): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    const controller = new AbortController();
    const changed = serialize(() => latest.current(), controller.signal);
    void followEventStream(ANALYTICS_STREAM_URL, controller.signal, {
      onEvent: ({ event }) => {
        if (event === 'rollups') changed();
      },
      onResume: changed,
    });
    return () => controller.abort();
  }, []);
}
