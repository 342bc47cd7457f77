import type { AccountDeletionProgress, DeleteAccountStarted } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

/** A wrong password is a 400 (not the 401 that would end the session): the card shows it under the field. */
export const deleteAccount = (password: string) => sendJson<DeleteAccountStarted>('post', 'account/delete', { password });
/** Read with the deletion's id alone: the session ended with the account. */
export const fetchDeletion = (id: string) => getJson<AccountDeletionProgress>(`account/delete/${encodeURIComponent(id)}`);

/** How often the erasure's progress is asked while it runs. */
export const DELETION_POLL_MS = 700;

export const STATUS_LABEL: Record<AccountDeletionProgress['services'][number]['status'], string> = {
  pending: 'Pendiente',
  running: 'Borrando…',
  done: 'Borrado',
};
