import { useEffect, useRef } from 'react';

/*
 * OAuth connections (Google, Microsoft) continue in a tab of their own, so the screen that asked keeps
 * its state. The provider sends that tab to our callback, which lands on the screen again with
 * `?<provider>=<outcome>`. Left there, the owner would have the app open twice: the landing tab hands
 * its outcome to the tab that asked, over a BroadcastChannel, and closes itself once that tab took it.
 * A landing tab nobody answers (the asking tab was closed, or the flow ran in this very tab because the
 * browser blocked the new one) keeps the outcome and shows it.
 */

const CHANNEL = 'asistente-conexion';

type Announcement =
  | { kind: 'outcome'; provider: string; outcome: string; id: string }
  | { kind: 'taken'; id: string };

/** Opened before any request, so the browser counts the tab as the click's own (no popup blocker). */
export function openConnectTab(): Window | null {
  return window.open('', '_blank');
}

/** Sends the opened tab to the consent page, or this tab when the browser gave none. */
export function sendToConsent(tab: Window | null, url: string): void {
  if (!tab) {
    window.location.href = url;
    return;
  }
  // The provider's pages must not reach back into ours.
  tab.opener = null;
  tab.location.href = url;
}

/** Reads and removes `?<provider>=` from the address, so a reload does not repeat it. */
function takeOutcomeFromAddress(provider: string): string | undefined {
  const url = new URL(window.location.href);
  const outcome = url.searchParams.get(provider);
  if (!outcome) return undefined;
  url.searchParams.delete(provider);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return outcome;
}

/**
 * The outcome of a `provider` connection for this screen: the one in this tab's address (handed to the
 * tab that asked, and this tab closed once it took it) or one a landing tab hands over.
 */
export function useConnectOutcome(provider: string, onOutcome: (outcome: string) => void): void {
  const handler = useRef(onOutcome);
  handler.current = onOutcome;
  useEffect(() => {
    const landed = takeOutcomeFromAddress(provider);
    if (typeof BroadcastChannel === 'undefined') {
      if (landed) handler.current(landed);
      return undefined;
    }
    const channel = new BroadcastChannel(CHANNEL);
    const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    channel.onmessage = (event: MessageEvent<Announcement>) => {
      const message = event.data;
      if (message.kind === 'outcome' && message.provider === provider) {
        channel.postMessage({ kind: 'taken', id: message.id } satisfies Announcement);
        handler.current(message.outcome);
      } else if (message.kind === 'taken' && message.id === id) {
        window.close();
      }
    };
    if (landed) {
      handler.current(landed);
      channel.postMessage({ kind: 'outcome', provider, outcome: landed, id } satisfies Announcement);
    }
    return () => channel.close();
  }, [provider]);
}
