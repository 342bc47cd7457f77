import { useEffect, useRef } from 'react';
import { EventStreamParser, type ServerEvent } from './event-stream';
import { onUnauthorized } from './http';
import { getToken } from './session-state';

const STREAM_URL = '/api/analytics/stream';
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
async function readStream(token: string, parser: EventStreamParser, onEvent: (e: ServerEvent) => void, signal: AbortSignal): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(STREAM_URL, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      cache: 'no-store',
      signal,
    });
  } catch {
    return 'reconnect';
  }
  if (response.status === 401) {
    onUnauthorized(STREAM_URL);
    return 'stop';
  }
  // No analytics service in this deployment: nothing will ever arrive.
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

/** Stays connected until `signal` aborts, reconnecting after the server's `retry:`, doubled on each failed attempt. */
async function follow(signal: AbortSignal, onChange: () => void): Promise<void> {
  let attemptsSinceReady = 0;
  let everReady = false;
  let retryMs = DEFAULT_RETRY_MS;
  while (!signal.aborted) {
    const token = getToken();
    if (!token) return;
    const parser = new EventStreamParser();
    const outcome = await readStream(
      token,
      parser,
      ({ event }) => {
        if (event === 'rollups') onChange();
        if (event !== 'ready') return;
        // Changes made while the connection was down were never announced.
        if (everReady) onChange();
        everReady = true;
        attemptsSinceReady = 0;
      },
      signal,
    );
    if (outcome === 'stop') return;
    retryMs = parser.retryMs ?? retryMs;
    await wait(Math.min(retryMs * 2 ** attemptsSinceReady, MAX_RETRY_MS), signal);
    attemptsSinceReady += 1;
  }
}

/** At most one refresh in flight: signals arriving meanwhile collapse into a single run after it. */
function serialize(task: () => unknown, signal: AbortSignal): () => void {
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
 * (GET /api/analytics/stream). A 401 there applies the 401 rule like any other call.
 */
export function useLiveRefresh(refresh: () => unknown): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    const controller = new AbortController();
    void follow(controller.signal, serialize(() => latest.current(), controller.signal));
    return () => controller.abort();
  }, []);
}
