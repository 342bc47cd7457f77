import type { EmailIntegration } from './api';

/**
 * What the inbox says while the owner's mailboxes are being read for the first time: the count of the
 * window stored so far ("120 de 340"), or only that it started for an account saved moments ago.
 * Null once every working account has synced.
 */
export function syncStatus(accounts: EmailIntegration[] | null): string | null {
  const working = (accounts ?? []).filter((a) => a.connected && !a.error);
  const counting = working.flatMap((a) => (a.sync ? [a.sync] : []));
  if (counting.length > 0) {
    const stored = counting.reduce((sum, s) => sum + s.stored, 0);
    const total = counting.reduce((sum, s) => sum + s.total, 0);
    return `Sincronizando tu correo… ${stored.toLocaleString('es')} de ${total.toLocaleString('es')}`;
  }
  return working.some((a) => a.lastSyncAt === null) ? 'Sincronizando tu correo…' : null;
}
