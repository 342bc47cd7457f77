import type { Contact, ContactBody } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';
import { phoneE164 } from './phone.js';

export interface ContactRow {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  tags: string[];
  phoneE164: string | null;
  notes: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The members who created and last changed the contact; null where no member wrote it. */
  createdBy: string | null;
  updatedBy: string | null;
}

export type ContactFields = Pick<ContactRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'company' | 'tags' | 'phoneE164'> & {
  /** Undefined: keep what is stored (a client that does not know notes must not erase them). */
  notes?: string | null;
};

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    company: row.company,
    tags: row.tags,
    phoneE164: row.phoneE164,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
  };
}

/** Blank optional fields are stored as NULL, so "no email" has one spelling. */
export function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Trimmed, non-empty and unique (case-insensitively), in the order given: the modal's Enter rule, server-side. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag && !seen.has(key)) {
      seen.add(key);
      result.push(tag);
    }
  }
  return result;
}

export function contactFields(body: ContactBody): ContactFields {
  const firstName = body.firstName.trim();
  const lastName = body.lastName.trim();
  if (!firstName) throw badRequest('El nombre es requerido', 'VALIDATION_ERROR');
  if (!lastName) throw badRequest('El apellido es requerido', 'VALIDATION_ERROR');
  const phone = blankToNull(body.phone);
  return {
    firstName,
    lastName,
    email: blankToNull(body.email),
    phone,
    company: blankToNull(body.company),
    tags: normalizeTags(body.tags ?? []),
    phoneE164: phoneE164(phone),
    ...(body.notes === undefined ? {} : { notes: blankToNull(body.notes) }),
  };
}
