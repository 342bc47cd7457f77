import {
  roleAllows,
  type ContactExportFormat,
  type ContactSelection,
  type ContactView,
  type ContactViewBody,
  type ImportPreview,
  type WorkspaceRole,
} from '@asistente/contracts';
import { getFile, getJson, postFile, sendDelete, sendJson, type FileDownload } from '../../lib/http';
import { uploadFile } from '../../lib/upload';
import { PAGE_SIZE, type Contact, type ContactInput, type ContactPage, type ContactQuery, type ContactStats, type ImportReport } from './types';

export function listContacts({ page, search, tag, order }: ContactQuery, signal: AbortSignal): Promise<ContactPage> {
  const searchParams: Record<string, string | number> = { page, limit: PAGE_SIZE };
  if (search) searchParams.search = search;
  if (tag) searchParams.tag = tag;
  if (order) {
    const [sort = 'createdAt', direction = 'desc'] = order.split('-');
    searchParams.sort = sort;
    searchParams.order = direction;
  }
  return getJson<ContactPage>('contacts', { searchParams, signal });
}

export const getContactStats = () => getJson<ContactStats>('contacts/stats');

export const getContactTags = async () => (await getJson<{ tags: string[] }>('contacts/tags')).tags;

export const createContact = (input: ContactInput) => sendJson<Contact>('post', 'contacts', input);

export const updateContact = (id: string, input: ContactInput) => sendJson<Contact>('put', `contacts/${id}`, input);

export type { ContactSelection };

/** Deletes the picked contacts (or every match of a filter) in one transaction; the token undoes it for a while. */
export const deleteContacts = (selection: ContactSelection) =>
  sendJson<{ deleted: number; undoToken: string; undoUntil: string }>('post', 'contacts/bulk/delete', { selection });

/** Deletes one contact for good: the way to delete for a role without bulk deletion (which alone can be undone). */
export const deleteContact = (id: string) => sendDelete(`contacts/${encodeURIComponent(id)}`);

/** Which of the two deletions a role may make: the contracts' role table, asked with the calls above. */
export const deletePermissions = (role: WorkspaceRole) => ({
  bulk: roleAllows(role, 'POST', '/contacts/bulk/delete'),
  one: roleAllows(role, 'DELETE', '/contacts/:id'),
});

/** Adds or removes tags on a selection in one transaction; answers how many contacts changed. */
export const tagContacts = (selection: ContactSelection, change: { add?: string[]; remove?: string[] }) =>
  sendJson<{ count: number }>('post', 'contacts/bulk/tags', { selection, ...change });

/** The CSV of a selection (picked ids, or every match of a filter), in the chosen format. */
export const exportSelection = (selection: ContactSelection, format: ContactExportFormat) => postFile(`contacts/export?format=${format}`, { selection });

/** Puts a bulk delete back exactly, ids included. */
export const restoreContacts = (undoToken: string) => sendJson<{ count: number }>('post', 'contacts/bulk/restore', { undoToken });

/** Imports a file with the columns mapped as chosen (header -> field, '' to leave one out); a dry run writes nothing. */
export function importContacts(file: File, onProgress: (fraction: number) => void, map?: Record<string, string>, dryRun = false) {
  const query = new URLSearchParams();
  if (map && Object.keys(map).length > 0) query.set('map', JSON.stringify(map));
  if (dryRun) query.set('dryRun', 'true');
  const text = query.toString();
  return uploadFile<ImportReport>(text ? `contacts/import?${text}` : 'contacts/import', file, 'text/csv', onProgress);
}

/** What the import would make of a file's columns: read from its first bytes only. */
export const previewImport = (file: File) =>
  uploadFile<ImportPreview>('contacts/import/preview', file.slice(0, 256 * 1024), 'text/csv', () => undefined);

/** The CSV of the contacts the current search and tag show. */
export function exportContacts(search: string, tag: string, format: ContactExportFormat): Promise<FileDownload> {
  const searchParams: Record<string, string> = { format };
  if (search) searchParams.search = search;
  if (tag) searchParams.tag = tag;
  return getFile('contacts/export', searchParams);
}

export type { ContactView, ContactViewBody, ImportPreview };

export const listViews = async () => (await getJson<{ views: ContactView[] }>('contacts/views')).views;

export const createView = (body: ContactViewBody) =>
  sendJson<ContactView>('post', 'contacts/views', body);

export const deleteView = (id: string) => sendDelete(`contacts/views/${id}`);
