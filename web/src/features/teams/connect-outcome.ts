/** What the OAuth callback reports in `?microsoft=` (and `&message=`) when it sends the browser back here. */
export interface ConnectOutcome {
  kind: 'success' | 'error';
  message: string;
}

/** Reads and removes the outcome from the address, so a reload does not repeat the message. */
export function takeConnectOutcome(): ConnectOutcome | undefined {
  const url = new URL(window.location.href);
  const outcome = url.searchParams.get('microsoft');
  if (!outcome) return undefined;
  const message = url.searchParams.get('message');
  url.searchParams.delete('microsoft');
  url.searchParams.delete('message');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  if (outcome === 'connected') return { kind: 'success', message: '¡Microsoft Teams conectado!' };
  return { kind: 'error', message: message || 'Microsoft no completó la conexión: inténtalo de nuevo.' };
}
