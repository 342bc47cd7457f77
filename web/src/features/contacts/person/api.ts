import type { ContactTimeline, DuplicateGroups, WorkspaceMemberList } from '@asistente/contracts';
import { getJson, sendJson } from '../../../lib/http';
import type { Contact } from '../types';

export type TimelineSection = ContactTimeline['sections'][number];
export type TimelineItem = TimelineSection['items'][number];

export const getContact = (id: string, signal?: AbortSignal) => getJson<Contact>(`contacts/${id}`, signal ? { signal } : {});

/** What the other services know of the contact; a service absent has no section. */
export const getTimeline = async (id: string, signal?: AbortSignal) =>
  (await getJson<ContactTimeline>(`contacts/${id}/timeline`, signal ? { signal } : {})).sections;

/** The other contacts sharing this one's phone (same number, any spelling). */
export async function getDuplicatesOf(contact: Contact, signal?: AbortSignal): Promise<Contact[]> {
  const { groups } = await getJson<DuplicateGroups>('contacts/duplicates', signal ? { signal } : {});
  const group = groups.find((g) => g.contacts.some((c) => c.id === contact.id));
  return group ? group.contacts.filter((c) => c.id !== contact.id) : [];
}

/** Merges `others` into `keepId` in one transaction: tags unioned, the timelines of both kept. */
export const mergeInto = (keepId: string, others: string[]) => sendJson<Contact>('post', `contacts/${keepId}/merge`, { ids: others });

/** The workspace's members, to name who created and last changed a contact. */
export const getMembers = () => getJson<WorkspaceMemberList>('workspace/members');
