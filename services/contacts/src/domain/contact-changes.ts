import type { ContactRow } from './contact.js';

/** The fields a `contacts.contact.updated` event may name, as the API spells them. */
const TRACKED = ['firstName', 'lastName', 'email', 'phone', 'company', 'notes', 'tags'] as const;
export type ContactField = (typeof TRACKED)[number];

/**
 * The names of the fields that differ between a contact before and after a write (the event's `contact`
 * snapshot carries the values after it, for the webhooks; never the notes).
 */
export function changedFields(before: Pick<ContactRow, ContactField>, after: Pick<ContactRow, ContactField>): ContactField[] {
  return TRACKED.filter((field) =>
    field === 'tags' ? before.tags.length !== after.tags.length || before.tags.some((tag, i) => tag !== after.tags[i]) : before[field] !== after[field],
  );
}
