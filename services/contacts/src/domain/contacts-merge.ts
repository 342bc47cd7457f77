import type { Contact } from '@asistente/contracts';
import { badRequest, notFound, type Outbox, type Sql } from '@asistente/kit';
import { normalizeTags, toContact, type ContactRow } from './contact.js';
import { changedFields } from './contact-changes.js';
import { contactDeleted, contactUpdated } from './contact-events.js';
import { writingMember } from './writing-member.js';

/** At most this many duplicate groups are listed at once. */
export const DUPLICATE_GROUPS_MAX = 100;

type MergeRow = ContactRow & { mergedKeys: string[] };

/** Someone's identifying keys: the E.164 phone and the lowercased email. */
function keysOf(row: MergeRow): string[] {
  return [row.phoneE164, row.email?.toLowerCase()].filter((k): k is string => !!k);
}

/**
 * One person, one contact: duplicates are contacts of the user with the same
 * phone in E.164 (whatever way it was typed). A merge keeps one contact, fills
 * its blanks from the others, unions the tags, writes what could not be kept
 * (a second email, phone, company or name) into its notes, remembers the
 * others' phones and emails for the timeline, and deletes them: all in one
 * transaction.
 */
export class ContactsMerge {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: Outbox,
  ) {}

  async duplicates(userId: string): Promise<{ key: string; contacts: Contact[] }[]> {
    const rows = await this.sql<(MergeRow & { key: string })[]>`
      with keys as (
        select phone_e164 as key from contacts.contacts
        where user_id = ${userId} and phone_e164 is not null
        group by phone_e164 having count(*) > 1
        order by phone_e164 limit ${DUPLICATE_GROUPS_MAX}
      )
      select c.*, c.phone_e164 as key from contacts.contacts c join keys on keys.key = c.phone_e164
      where c.user_id = ${userId}
      order by c.phone_e164, c.created_at, c.id`;
    const groups = new Map<string, Contact[]>();
    for (const row of rows) groups.set(row.key, [...(groups.get(row.key) ?? []), toContact(row)]);
    return [...groups].map(([key, contacts]) => ({ key, contacts }));
  }

  async merge(userId: string, keepId: string, otherIds: string[]): Promise<Contact> {
    const others = [...new Set(otherIds)];
    if (others.includes(keepId)) throw badRequest('Un contacto no puede fusionarse consigo mismo', 'VALIDATION_ERROR');
    return this.sql.begin(async (tx) => {
      const rows = await tx<MergeRow[]>`
        select * from contacts.contacts where user_id = ${userId} and id = any(${[keepId, ...others]}::uuid[])
        order by created_at, id for update`;
      const kept = rows.find((r) => r.id === keepId);
      const merged = rows.filter((r) => r.id !== keepId);
      if (!kept || merged.length !== others.length) throw notFound('Contacto no encontrado');

      const pick = (field: 'email' | 'phone' | 'company') => kept[field] ?? merged.find((r) => r[field])?.[field] ?? null;
      const email = pick('email');
      const phone = pick('phone');
      const company = pick('company');
      const phoneE164 = kept.phone ? kept.phoneE164 : (merged.find((r) => r.phone === phone)?.phoneE164 ?? null);
      const lost = merged.map((r) => {
        const extra = [
          r.email && r.email.toLowerCase() !== email?.toLowerCase() ? r.email : null,
          r.phone && r.phone !== phone && r.phoneE164 !== phoneE164 ? r.phone : null,
          r.company && r.company !== company ? r.company : null,
        ].filter(Boolean);
        const name = `${r.firstName} ${r.lastName}`;
        const sameName = name === `${kept.firstName} ${kept.lastName}`;
        return sameName && extra.length === 0 ? null : `Fusionado con ${name}${extra.length ? ` (${extra.join(', ')})` : ''}`;
      });
      const notes = [kept.notes, ...merged.map((r) => r.notes), ...lost].filter(Boolean).join('\n') || null;
      const mergedKeys = [...new Set([...kept.mergedKeys, ...merged.flatMap((r) => [...keysOf(r), ...r.mergedKeys])])].filter(
        (k) => k !== phoneE164 && k !== email?.toLowerCase(),
      );
      const tags = normalizeTags([...kept.tags, ...merged.flatMap((r) => r.tags)]);

      // The others go first: the email the kept contact takes over is unique per user.
      await tx`delete from contacts.contacts where user_id = ${userId} and id = any(${others}::uuid[])`;
      const [row] = await tx<MergeRow[]>`
        update contacts.contacts set email = ${email}, phone = ${phone}, company = ${company}, phone_e164 = ${phoneE164},
          tags = ${tags}::text[], notes = ${notes}, merged_keys = ${mergedKeys}::text[], updated_at = now(), updated_by = ${writingMember()}
        where id = ${keepId} and user_id = ${userId}
        returning *`;
      await this.outbox.append(tx, [
        ...merged.map((gone) => contactDeleted(userId, gone)),
        contactUpdated(userId, row!, changedFields(kept, row!)),
      ]);
      return toContact(row!);
    });
  }

  /** The keys the timeline looks a contact up by: its own phone and email, and those of contacts merged into it. */
  async keys(userId: string, id: string): Promise<{ phones: string[]; emails: string[] } | undefined> {
    const [row] = await this.sql<MergeRow[]>`select * from contacts.contacts where id = ${id} and user_id = ${userId}`;
    if (!row) return undefined;
    const all = [...keysOf(row), ...row.mergedKeys];
    return { phones: all.filter((k) => k.startsWith('+')), emails: all.filter((k) => k.includes('@')) };
  }
}
