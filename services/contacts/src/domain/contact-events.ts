import { IMPORT_EVENT_MAX_BYTES, IMPORT_EVENT_MAX_CONTACTS, type ContactSnapshot, type EventData } from '@asistente/contracts';
import { createEvent, type EventEnvelope } from '@asistente/kit';
import type { ContactRow } from './contact.js';

/** The columns a contact event's snapshot is made of. */
export type SnapshotRow = Pick<ContactRow, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'company' | 'tags'>;

/** What a contact event tells a webhook's receiver of the contact (never its notes: free text about a person). */
function snapshotOf(row: SnapshotRow): ContactSnapshot {
  return { firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone, company: row.company, tags: row.tags };
}

export const contactCreated = (userId: string, row: SnapshotRow, occurredAt?: Date): EventEnvelope =>
  createEvent('contacts.contact.created', userId, { contactId: row.id, hasEmail: row.email !== null, contact: snapshotOf(row) }, occurredAt);

export const contactUpdated = (userId: string, row: SnapshotRow, changed: string[]): EventEnvelope =>
  createEvent('contacts.contact.updated', userId, { contactId: row.id, changed, contact: snapshotOf(row) });

/** The contact as it was before it went: a receiver can no longer ask for it. */
export const contactDeleted = (userId: string, row: SnapshotRow): EventEnvelope =>
  createEvent('contacts.contact.deleted', userId, { contactId: row.id, contact: snapshotOf(row) });

/** A contact an import wrote: `changed` names the fields of one it changed (as an update's event does); absent, it added it. */
export interface ImportWrite {
  row: SnapshotRow;
  changed?: string[] | undefined;
}

type ImportedContact = EventData<'contacts.import.written'>['contacts'][number];

/**
 * The contacts one import batch wrote, as few `contacts.import.written` as fit: at most
 * IMPORT_EVENT_MAX_CONTACTS each and, past the first contact of an event, no more than IMPORT_EVENT_MAX_BYTES
 * of JSON. One event per contact made a 100k-row import spend more on its events than on its rows.
 */
export function importWritten(userId: string, writes: ImportWrite[]): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  let contacts: ImportedContact[] = [];
  let bytes = 0;
  const flush = () => {
    if (contacts.length > 0) events.push(createEvent('contacts.import.written', userId, { contacts }));
    contacts = [];
    bytes = 0;
  };
  for (const { row, changed } of writes) {
    const contact: ImportedContact = changed
      ? { contactId: row.id, created: false, changed, contact: snapshotOf(row) }
      : { contactId: row.id, created: true, contact: snapshotOf(row) };
    // Its size as it travels (UTF-8) plus the comma between two; the envelope's own fields are a few hundred bytes.
    const size = Buffer.byteLength(JSON.stringify(contact)) + 1;
    if (contacts.length === IMPORT_EVENT_MAX_CONTACTS || (contacts.length > 0 && bytes + size > IMPORT_EVENT_MAX_BYTES)) flush();
    contacts.push(contact);
    bytes += size;
  }
  flush();
  return events;
}
