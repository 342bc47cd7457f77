import type { AccountExport, AccountExportStarted, CurrentAccountExport } from '@asistente/contracts';
import { getFile, getJson, sendJson } from '../../lib/http';

export const startExport = () => sendJson<AccountExportStarted>('post', 'account/export', {});
export const fetchCurrentExport = async () => (await getJson<CurrentAccountExport>('account/export')).export;
export const fetchExport = (id: string) => getJson<AccountExport>(`account/export/${encodeURIComponent(id)}`);
export const downloadExport = (id: string) => getFile(`account/export/${encodeURIComponent(id)}/download`);

/** How often a build's progress is asked while it runs. */
export const EXPORT_POLL_MS = 1000;

const UNTIL = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });
export const formatUntil = (iso: string) => UNTIL.format(new Date(iso));

const SIZE = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${SIZE.format(Math.max(bytes, 1) / 1024)} KB`;
  return `${SIZE.format(bytes / 1024 / 1024)} MB`;
}
