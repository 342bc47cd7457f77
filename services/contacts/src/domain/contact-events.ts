import type { ContactSnapshot } from '@asistente/contracts';
import { createEvent, type EventEnvelope } from '@asistente/kit';
import type { ContactRow } from './contact.js';

/** The columns a contact event's snapshot is made of. */
export type SnapshotRow = Pick<ContactRow, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'company' | 'tags'>;

/** What a contact event tells a webhook's receiver of the contact (never its notes: free text about a person). */
function snapshotOf(row: SnapshotRow): ContactSnapshot {
  return { firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone, company: row.company, tags: row.tags };
}

/** `imported`: written by a CSV import, whose `contacts.contact.imported` counts the batch. */
const importedMark = (imported: boolean) => (imported ? { imported: true } : {});

export const contactCreated = (userId: string, row: SnapshotRow, imported = false, occurredAt?: Date): EventEnvelope =>
  createEvent('contacts.contact.created', userId, { contactId: row.id, hasEmail: row.email !== null, contact: snapshotOf(row), ...importedMark(imported) }, occurredAt);

export const contactUpdated = (userId: string, row: SnapshotRow, changed: string[], imported = false): EventEnvelope =>
  createEvent('contacts.contact.updated', userId, { contactId: row.id, changed, contact: snapshotOf(row), ...importedMark(imported) });

/** The contact as it was before it went: a receiver can no longer ask for it. */
export const contactDeleted = (userId: string, row: SnapshotRow): EventEnvelope =>
  createEvent('contacts.contact.deleted', userId, { contactId: row.id, contact: snapshotOf(row) });
