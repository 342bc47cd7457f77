import { atom, getDefaultStore, useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';

/**
 * Is the server reachable? Every request made through lib/http (and the live streams) reports here: a
 * network failure turns the app "offline" at once (the layout shows `Sin conexión con el servidor.
 * Reintentando…`), and then ONE probe of GET /health, with growing pauses, finds out when it is back.
 * Screens do not retry on their own meanwhile, so a down server never sees a storm of requests.
 */
export type ConnectionState = 'online' | 'offline';

/** Pauses between probes while the server is down: 1 s, 2 s, 4 s… at most 15 s, each with up to 10% more. */
export const PROBE_FIRST_MS = 1000;
export const PROBE_MAX_MS = 15_000;
const PROBE_URL = '/health';
const PROBE_TIMEOUT_MS = 5000;

const store = getDefaultStore();
const connectionAtom = atom<ConnectionState>('online');
const reconnectListeners = new Set<() => void>();
let probing = false;

export function connectionState(): ConnectionState {
  return store.get(connectionAtom);
}

/** A request got an answer (any HTTP status): the server is there. */
export function reportServerReached(): void {
  if (store.get(connectionAtom) === 'online') return;
  store.set(connectionAtom, 'online');
  reconnectListeners.forEach((listener) => listener());
}

/** A request failed without an answer (network error, server stopped): go offline and start probing. */
export function reportServerUnreachable(): void {
  if (store.get(connectionAtom) === 'offline') return;
  store.set(connectionAtom, 'offline');
  void probeUntilBack();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function probeUntilBack(): Promise<void> {
  if (probing) return;
  probing = true;
  let delay = PROBE_FIRST_MS;
  while (store.get(connectionAtom) === 'offline') {
    await pause(delay * (1 + Math.random() * 0.1));
    if (store.get(connectionAtom) === 'online') break;
    try {
      const response = await fetch(PROBE_URL, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (response.ok) reportServerReached();
    } catch {
      // still down
    }
    delay = Math.min(delay * 2, PROBE_MAX_MS);
  }
  probing = false;
}

/** Runs `listener` each time the server is reachable again after being down; answers the unsubscribe. */
export function onReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Resolves when the server is reachable (at once if it is), or when `signal` aborts. */
export function whenOnline(signal: AbortSignal): Promise<void> {
  if (store.get(connectionAtom) === 'online' || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      off();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const off = onReconnected(done);
    signal.addEventListener('abort', done);
  });
}

export function useConnection(): ConnectionState {
  return useAtomValue(connectionAtom);
}

/**
 * While the calling component is mounted, runs `reload` when the server comes back after being down:
 * the way a screen that loads its data once refreshes what it shows (marked stale meanwhile).
 */
export function useReloadOnReconnect(reload: () => unknown): void {
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(() => onReconnected(() => void latest.current()), []);
}
