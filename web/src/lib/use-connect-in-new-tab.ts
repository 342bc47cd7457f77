import { useCallback, useEffect, useRef, useState } from 'react';

/*
 * OAuth connections (Google Calendar, Microsoft, Gmail, Outlook) continue in a tab of their own, so the
 * screen that asked keeps its state. The provider sends that tab to our callback, which lands on the
 * screen again with the outcome in the query (`?google=connected`, `?connected=gmail`, `?error=…`). Left
 * there, the owner would have the app open twice: the landing tab hands its outcome to the tab that asked,
 * over a BroadcastChannel, and closes itself once that tab took it. A landing tab nobody answers (the
 * asking tab was closed, or the flow ran in this very tab because the browser blocked the new one) keeps
 * the outcome and shows it.
 */

const CHANNEL = 'asistente-conexion';

/** The query parameters a callback landed with, by name. */
export type ConnectOutcome = Record<string, string>;

type Announcement = { kind: 'outcome'; name: string; outcome: ConnectOutcome; id: string } | { kind: 'taken'; id: string };

export interface ConnectInNewTabOptions {
  /** Which connection this screen waits for; a landing tab hands its outcome to the screens of the same name. */
  name: string;
  /** The query parameters the callback lands with; `[name]` when left out. */
  params?: readonly string[];
  /** The outcome, landed in this tab's address or handed over by the tab the flow ran in. */
  onOutcome: (outcome: ConnectOutcome) => void;
}

export interface ConnectInNewTab {
  /**
   * Opens the tab (at once, so the browser counts it as the click's own: no popup blocker), asks for the
   * consent URL and sends the tab there, or this tab when the browser gave none. On failure the tab is
   * closed and the error thrown for the screen to show. Resolves with whether a new tab took the flow.
   */
  connect: (consentUrl: () => Promise<string>) => Promise<{ newTab: boolean }>;
  /** True while the consent URL is being asked for. */
  connecting: boolean;
}

/** Reads and removes `params` from the address, so a reload does not repeat the outcome. */
function takeOutcomeFromAddress(params: readonly string[]): ConnectOutcome | undefined {
  const url = new URL(window.location.href);
  const outcome: ConnectOutcome = {};
  for (const param of params) {
    const value = url.searchParams.get(param);
    if (value === null || value === '') continue;
    outcome[param] = value;
    url.searchParams.delete(param);
  }
  if (Object.keys(outcome).length === 0) return undefined;
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return outcome;
}

function sendToConsent(tab: Window | null, url: string): void {
  if (!tab) {
    window.location.href = url;
    return;
  }
  // The provider's pages must not reach back into ours.
  tab.opener = null;
  tab.location.href = url;
}

/** The connect-in-a-new-tab flow of every OAuth connection screen: the click, and the outcome's way back. */
export function useConnectInNewTab({ name, params, onOutcome }: ConnectInNewTabOptions): ConnectInNewTab {
  const handler = useRef(onOutcome);
  handler.current = onOutcome;
  const [connecting, setConnecting] = useState(false);
  const paramsKey = (params ?? [name]).join('&');

  useEffect(() => {
    const landed = takeOutcomeFromAddress(paramsKey.split('&'));
    if (typeof BroadcastChannel === 'undefined') {
      if (landed) handler.current(landed);
      return undefined;
    }
    const channel = new BroadcastChannel(CHANNEL);
    const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    channel.onmessage = (event: MessageEvent<Announcement>) => {
      const message = event.data;
      if (message.kind === 'outcome' && message.name === name) {
        channel.postMessage({ kind: 'taken', id: message.id } satisfies Announcement);
        handler.current(message.outcome);
      } else if (message.kind === 'taken' && message.id === id) {
        window.close();
      }
    };
    if (landed) {
      handler.current(landed);
      channel.postMessage({ kind: 'outcome', name, outcome: landed, id } satisfies Announcement);
    }
    return () => channel.close();
  }, [name, paramsKey]);

  const connect = useCallback(async (consentUrl: () => Promise<string>) => {
    // Opened before any request, so the browser treats it as the click's own window.
    const tab = window.open('', '_blank');
    setConnecting(true);
    try {
      sendToConsent(tab, await consentUrl());
      return { newTab: tab !== null };
    } catch (error) {
      tab?.close();
      throw error;
    } finally {
      setConnecting(false);
    }
  }, []);

  return { connect, connecting };
}
