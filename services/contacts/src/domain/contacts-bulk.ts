import { randomUUID } from 'node:crypto';
import {
  CONTACTS_UNDO_SECONDS,
  type BulkDeleteResult,
  type ContactSelection,
} from '@asistente/contracts';
import { badRequest, notFound, type Outbox, type Sql, type TransactionSql } from '@asistente/kit';
import { normalizeTags } from './contact.js';
import { contactCreated, contactDeleted, contactUpdated, type SnapshotRow } from './contact-events.js';
import type { ContactsRepository } from './contacts.repository.js';
import { writingMember } from './writing-member.js';

const SOME_NOT_FOUND = 'Alguno de los contactos no existe';

/**
 * Actions on many contacts at once (tags, delete, undo), each in one
 * transaction: interrupted, nothing of it is left half done. A selection by
 * ids must name only the user's own contacts, or nothing is done (404).
 */
export class ContactsBulk {
  constructor(
    private readonly sql: Sql,
    private readonly contacts: ContactsRepository,
    private readonly outbox: Outbox,
  ) {}

  async tags(userId: string, selection: ContactSelection, add: string[] = [], remove: string[] = []): Promise<number> {
    const adding = normalizeTags(add);
    const removing = normalizeTags(remove).map((t) => t.toLowerCase());
    if (adding.length === 0 && removing.length === 0) throw badRequest('Indica al menos una etiqueta que añadir o quitar', 'VALIDATION_ERROR');
    return this.sql.begin(async (tx) => {
      await this.checkIds(tx, userId, selection);
      const changed = await tx<SnapshotRow[]>`
        with target as (
          select id, array(
            select t from (
              select distinct on (lower(t)) t, ord from unnest(tags || ${adding}::text[]) with ordinality as u(t, ord)
              where lower(t) <> all(${removing}::text[])
              order by lower(t), ord
            ) kept order by ord
          ) as next
          from contacts.contacts where ${this.contacts.selection(userId, selection)}
        )
        update contacts.contacts c set tags = target.next, updated_at = now(), updated_by = ${writingMember()}
        from target where c.id = target.id and c.tags is distinct from target.next
        returning c.id, c.first_name, c.last_name, c.email, c.phone, c.company, c.tags`;
      await this.outbox.append(tx, changed.map((row) => contactUpdated(userId, row, ['tags'])));
      return changed.length;
    });
  }

  /** Moves the selected contacts to the trash under a fresh undo token, in one transaction. */
  async delete(userId: string, selection: ContactSelection): Promise<BulkDeleteResult> {
    const undoToken = randomUUID();
    return this.sql.begin(async (tx) => {
      await tx`delete from contacts.trash where deleted_at < now() - make_interval(secs => ${CONTACTS_UNDO_SECONDS})`;
      await this.checkIds(tx, userId, selection);
      const gone = await tx<(SnapshotRow & { deletedAt: Date })[]>`
        with gone as (
          delete from contacts.contacts where ${this.contacts.selection(userId, selection)}
          returning id, first_name, last_name, email, phone, company, tags, phone_e164, notes, merged_keys, created_at, updated_at, created_by
        )
        insert into contacts.trash (batch_id, user_id, id, first_name, last_name, email, phone, company, tags, phone_e164, notes, merged_keys, created_at, updated_at, created_by)
        select ${undoToken}, ${userId}, id, first_name, last_name, email, phone, company, tags, phone_e164, notes, merged_keys, created_at, updated_at, created_by from gone
        returning id, first_name, last_name, email, phone, company, tags, deleted_at`;
      await this.outbox.append(tx, gone.map((row) => contactDeleted(userId, row)));
      const since = gone[0]?.deletedAt ?? new Date();
      return { deleted: gone.length, undoToken, undoUntil: new Date(since.getTime() + CONTACTS_UNDO_SECONDS * 1000).toISOString() };
    });
  }

  /**
   * Puts a bulk delete back exactly (ids, dates, tags, creator). A contact whose
   * email was taken again meanwhile stays in the trash; the count says how many
   * came back. The member who restores is the last to have written them.
   */
  async restore(userId: string, undoToken: string): Promise<number> {
    return this.sql.begin(async (tx) => {
      const batch = await tx<{ id: string }[]>`
        select id from contacts.trash
        where batch_id = ${undoToken} and user_id = ${userId}
          and deleted_at >= now() - make_interval(secs => ${CONTACTS_UNDO_SECONDS})
        limit 1`;
      if (batch.length === 0) throw notFound('No hay nada que deshacer: el plazo terminó o ya se deshizo');
      const back = await tx<SnapshotRow[]>`
        insert into contacts.contacts (id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, merged_keys, created_at, updated_at, created_by, updated_by)
        select id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, merged_keys, created_at, updated_at, created_by, ${writingMember()}::uuid
        from contacts.trash where batch_id = ${undoToken} and user_id = ${userId}
        on conflict do nothing
        returning id, first_name, last_name, email, phone, company, tags`;
      await tx`delete from contacts.trash where batch_id = ${undoToken} and id = any(${back.map((r) => r.id)}::uuid[])`;
      await this.outbox.append(
        tx,
        back.map((row) => contactCreated(userId, row)),
      );
      return back.length;
    });
  }

  /** Every id of a selection by ids is the user's, or the action stops with a 404 before writing. */
  private async checkIds(tx: TransactionSql, userId: string, selection: ContactSelection): Promise<void> {
    if (!selection.ids && !selection.filter) throw badRequest('Indica los contactos: una lista de ids o un filtro', 'VALIDATION_ERROR');
    if (selection.ids && selection.filter) throw badRequest('Indica los contactos con ids o con un filtro, no con ambos', 'VALIDATION_ERROR');
    if (!selection.ids) return;
    const unique = [...new Set(selection.ids)];
    const [row] = await tx<{ n: string }[]>`
      select count(*) as n from contacts.contacts where user_id = ${userId} and id = any(${unique}::uuid[])`;
    if (Number(row?.n ?? 0) !== unique.length) throw notFound(SOME_NOT_FOUND);
  }
}
