import { getFile, getJson, sendJson, type FileDownload } from '../../lib/http';
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

/** Deletes the picked contacts in one transaction; the token undoes it for a while. */
export const deleteContacts = (ids: string[]) =>
  sendJson<{ deleted: number; undoToken: string; undoUntil: string }>('post', 'contacts/bulk/delete', { selection: { ids } });

/** Puts a bulk delete back exactly, ids included. */
export const restoreContacts = (undoToken: string) => sendJson<{ count: number }>('post', 'contacts/bulk/restore', { undoToken });

export const importContacts = (file: File, onProgress: (fraction: number) => void) =>
  uploadFile<ImportReport>('contacts/import', file, 'text/csv', onProgress);

/** The CSV of the contacts the current search and tag show. */
export function exportContacts(search: string, tag: string): Promise<FileDownload> {
  const searchParams: Record<string, string> = {};
  if (search) searchParams.search = search;
  if (tag) searchParams.tag = tag;
  return getFile('contacts/export', searchParams);
}
