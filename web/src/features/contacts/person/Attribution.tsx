import type { Contact } from '../types';
import type { NameOf } from './use-member-names';

interface AttributionProps {
  contact: Pick<Contact, 'createdBy' | 'updatedBy' | 'createdAt' | 'updatedAt'>;
  nameOf: NameOf;
}

/**
 * «Creado por …» and «Modificado por …»: the members who wrote the contact. A side no member wrote (the
 * WhatsApp sync, contacts from before) is left out, and «Modificado» too while the contact is as it was created.
 */
export function Attribution({ contact, nameOf }: AttributionProps) {
  const { createdBy, updatedBy } = contact;
  const modifiedBy = updatedBy !== null && (contact.updatedAt !== contact.createdAt || updatedBy !== createdBy) ? updatedBy : null;
  if (createdBy === null && modifiedBy === null) return null;
  return (
    <p className="contact-attribution">
      {createdBy !== null && <span>Creado por {nameOf(createdBy)}</span>}
      {modifiedBy !== null && <span>Modificado por {nameOf(modifiedBy)}</span>}
    </p>
  );
}
