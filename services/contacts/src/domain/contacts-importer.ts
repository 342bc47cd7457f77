import type { ImportReport } from '@asistente/contracts';
import { allowLongStatements, badRequest, createEvent, type Database, type EventEnvelope, type Logger, type Outbox, type Sql, type TextRow, type TransactionSql } from '@asistente/kit';
import { changedFields } from './contact-changes.js';
import { importWritten, type SnapshotRow } from './contact-events.js';
import type { ContactRow } from './contact.js';
import { readCsv, type ColumnMapping } from './csv-records.js';
import { ImportDuplicates } from './import-duplicates.js';
import { importRow, TAG_SEPARATOR } from './import-row.js';
import { writingMember } from './writing-member.js';

/** A report lists this many bad (and skipped) lines at most; a broken 1M-line file must not answer 1M errors. */
export const MAX_REPORTED_ERRORS = 1000;

/** An import writing at least this many rows refreshes the planner's view of the table before answering. */
export const SETTLE_AFTER_ROWS = 10_000;

/**
 * Valid rows written (or, in a dry run, compared) per transaction. Embedded,
 * every user shares one connection: another user's request waits for one
 * batch at most, so batches stay small. A server has a pool of connections,
 * and larger batches keep its import fast.
 */
export const IMPORT_BATCH_ROWS: Record<Database['kind'], number> = { pglite: 250, postgres: 5000 };

/** Rows of one batch as the column arrays the SQL unnests. */
interface Batch {
  line: number[];
  firstName: string[];
  lastName: string[];
  email: (string | null)[];
  phone: (string | null)[];
  company: (string | null)[];
  tags: string[];
  phoneE164: (string | null)[];
}

function emptyBatch(): Batch {
  return { line: [], firstName: [], lastName: [], email: [], phone: [], company: [], tags: [], phoneE164: [] };
}

/** What an import event announces: the counts of one batch (and the failures read since the last one). */
type ImportCounts = { created: number; updated: number; skipped: number; failed: number };

/** What one batch did (or would do): the contacts with an email, by lowercased address, and how many without one it added. */
interface BatchOutcome {
  keys: { key: string; inserted: boolean }[];
  insertedWithoutEmail: number;
}

/** A contact an import wrote, with what it held before when it was an update (for its event's `changed`). */
type Written = SnapshotRow &
  Pick<ContactRow, 'notes'> & {
    key: string | null;
    inserted: boolean;
    // Null for a row the batch inserted; absent for one without an email (always inserted).
    wasFirstName?: string | null;
    wasLastName?: string | null;
    wasPhone?: string | null;
    wasCompany?: string | null;
    wasTags?: string[] | null;
  };

/**
 * Each contact a batch wrote with its fields, in a few batch events (contact-events.ts) beside the batch's
 * counts: the webhooks turn them into one contact.created or contact.updated per contact for the endpoints
 * that hear those, so a receiver hears of every contact an import adds or changes.
 */
function writtenEvents(userId: string, written: Written[]): EventEnvelope[] {
  return importWritten(
    userId,
    written.map((row) => {
      if (row.inserted) return { row };
      const before = { ...row, firstName: row.wasFirstName ?? '', lastName: row.wasLastName ?? '', phone: row.wasPhone ?? null, company: row.wasCompany ?? null, tags: row.wasTags ?? [] };
      return { row, changed: changedFields(before, row) };
    }),
  );
}

/** Lets the event loop serve other requests between batches. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * CSV import: the upload streams through validation in batches, each merged
 * in a transaction of its own, upserting by (user, lower(email)), so one
 * import never holds the database for more than a batch and memory stays
 * flat. A dry run reads the same batches against the stored contacts and
 * writes nothing at all (no staging table, no WAL). Counts are per address
 * across the whole file: an address seen in several batches counts once.
 * An import stopped midway (a crash) leaves the batches already merged, each
 * with its event (appended in the batch's transaction, so analytics counts
 * exactly what was written, and the contacts it wrote travel beside it, with
 * their fields, for the webhooks); importing the same file again completes it,
 * since the merge is an upsert and unchanged rows are skipped. The member who
 * imports is recorded as the creator of the rows it adds and the last to
 * change the rows it rewrites.
 */
export class ContactsImporter {
  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async import(userId: string, body: AsyncIterable<Buffer | string>, dryRun = false, mapping: ColumnMapping = {}): Promise<ImportReport> {
    const csv = await readCsv(body, mapping);
    // Read once in the request: the batches' transactions all write for the member who imported.
    const member = writingMember();
    const errors: ImportReport['errors'] = [];
    let failed = 0;
    let records = 0;
    let valid = 0;
    const created = new Set<string>();
    const updated = new Set<string>();
    let createdWithoutEmail = 0;
    const duplicates = new ImportDuplicates(MAX_REPORTED_ERRORS);

    let eventsAppended = 0;
    let failedAnnounced = 0;
    // What a batch adds to the import's counts: an address counts once across the whole file.
    const batchCounts = (outcome: BatchOutcome, rows: number): ImportCounts => {
      let batchCreated = outcome.insertedWithoutEmail;
      let batchUpdated = 0;
      for (const { key, inserted } of outcome.keys) {
        if (inserted) batchCreated++;
        else if (!created.has(key) && !updated.has(key)) batchUpdated++;
      }
      return { created: batchCreated, updated: batchUpdated, skipped: rows - batchCreated - batchUpdated, failed: failed - failedAnnounced };
    };
    const apply = async (batch: Batch) => {
      const stored = await this.storedPhones(userId, duplicates.phonesToLookUp(batch));
      const withoutEmail = duplicates.linesWithoutEmailToAdd(batch, stored);
      const outcome = dryRun
        ? await this.compare(userId, batch, withoutEmail)
        : await this.merge(userId, member, batch, withoutEmail, (merged) => createEvent('contacts.contact.imported', userId, batchCounts(merged, batch.line.length)));
      duplicates.linesWithEmail(batch, new Set(outcome.keys.map(({ key }) => key)), (key) => created.has(key) || updated.has(key));
      if (!dryRun) {
        eventsAppended++;
        failedAnnounced = failed;
      }
      for (const { key, inserted } of outcome.keys) {
        if (inserted) created.add(key);
        else if (!created.has(key)) updated.add(key);
      }
      createdWithoutEmail += outcome.insertedWithoutEmail;
      await yieldToOthers();
    };

    let batch = emptyBatch();
    for await (const record of csv.records) {
      records++;
      const result = importRow(record, csv.delimiter);
      if (!result.ok) {
        failed++;
        if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line: record.line, message: result.message });
        continue;
      }
      valid++;
      push(batch, result.row);
      if (batch.line.length >= IMPORT_BATCH_ROWS[this.db.kind]) {
        await apply(batch);
        batch = emptyBatch();
      }
    }
    if (records === 0 && csv.unreadable.length === 0) {
      throw badRequest('El archivo no tiene filas de contactos: solo la cabecera', 'CSV_NO_ROWS');
    }
    for (const bad of csv.unreadable) {
      failed++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(bad);
    }
    errors.sort((a, b) => a.line - b.line);
    if (batch.line.length > 0) await apply(batch);

    const report: ImportReport = {
      created: created.size + createdWithoutEmail,
      updated: updated.size,
      skipped: 0,
      errors,
      ...(duplicates.skips.length ? { skippedLines: duplicates.skips.sort((a, b) => a.line - b.line) } : {}),
      ...(csv.unmapped.length ? { unmappedColumns: csv.unmapped } : {}),
    };
    report.skipped = valid - report.created - report.updated;
    if (dryRun) return report;
    // Failures after the last batch (or a file of nothing but failures) are announced on their own.
    if (eventsAppended === 0 || failed > failedAnnounced) {
      const rest: ImportCounts = { created: 0, updated: 0, skipped: 0, failed: failed - failedAnnounced };
      await this.db.sql.begin((tx) => this.outbox.append(tx, [createEvent('contacts.contact.imported', userId, rest)]));
    }
    if (report.created + report.updated >= SETTLE_AFTER_ROWS) await this.settle();
    return report;
  }

  /**
   * After a bulk write the planner still sees the table as it was (PGlite runs no
   * autovacuum; a server's lags up to a minute), so a search would walk every
   * contact of the user instead of using the trigram index, and would scan the
   * index's pending list. The import has committed by now: a failure here (a
   * database user that does not own the table) is logged, not answered.
   */
  private async settle(): Promise<void> {
    try {
      await this.db.sql.begin(async (tx) => {
        await allowLongStatements(tx);
        await tx`select gin_clean_pending_list('contacts.contacts_search_trgm'::regclass)`;
        await tx`analyze contacts.contacts`;
      });
    } catch (error) {
      this.log.warn({ err: error }, 'table statistics not refreshed after a large import');
    }
  }

  /** Which of `phones` (E.164) a stored contact of the user already has. */
  private async storedPhones(userId: string, phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const rows = await this.db.sql<{ phone: string }[]>`
      select distinct phone_e164 as phone from contacts.contacts where user_id = ${userId} and phone_e164 = any(${phones}::text[])`;
    return new Set(rows.map((r) => r.phone));
  }

  /** The batch's rows with an email, one per address (the last line wins), as SQL. */
  private source(sql: Sql | TransactionSql, batch: Batch) {
    return sql`
      select distinct on (lower(email)) first_name, last_name, email, phone, company, phone_e164,
        coalesce(string_to_array(nullif(tags, ''), ${TAG_SEPARATOR}), '{}') as tags
      from unnest(${batch.line}::int[], ${batch.firstName}::text[], ${batch.lastName}::text[], ${batch.email}::text[],
        ${batch.phone}::text[], ${batch.company}::text[], ${batch.tags}::text[], ${batch.phoneE164}::text[])
        as r(line, first_name, last_name, email, phone, company, tags, phone_e164)
      where email is not null
      order by lower(email), line desc`;
  }

  /**
   * Rows with an email upsert (existing phone/company survive a blank cell;
   * tags are merged); unchanged contacts are not rewritten. Rows without one
   * are new contacts: those at `withoutEmail` (the others repeat a phone).
   * One transaction per batch.
   */
  private merge(userId: string, member: string | null, batch: Batch, withoutEmail: number[], announce: (outcome: BatchOutcome) => EventEnvelope): Promise<BatchOutcome> {
    return this.db.sql.begin(async (tx) => {
      // An import's batch may outlast the requests' statement timeout on a busy server.
      await allowLongStatements(tx);
      // `before` reads the rows as they stood (one snapshot for the whole statement), for each update's `changed`.
      const upserted = await tx<Written[]>`
        with source as (${this.source(tx, batch)}),
        before as (
          select c.id, c.first_name, c.last_name, c.phone, c.company, c.tags from contacts.contacts c join source s on lower(c.email) = lower(s.email)
          where c.user_id = ${userId} and c.email is not null
        ),
        written as (
        insert into contacts.contacts as c (user_id, first_name, last_name, email, phone, company, tags, phone_e164, created_by, updated_by)
        select ${userId}, first_name, last_name, email, phone, company, tags, phone_e164, ${member}::uuid, ${member}::uuid from source
        on conflict (user_id, lower(email)) where email is not null do update set
          first_name = excluded.first_name,
          last_name = excluded.last_name,
          phone = coalesce(excluded.phone, c.phone),
          phone_e164 = case when excluded.phone is null then c.phone_e164 else excluded.phone_e164 end,
          company = coalesce(excluded.company, c.company),
          tags = array(select distinct t from unnest(c.tags || excluded.tags) as t order by t),
          updated_at = now(),
          updated_by = excluded.updated_by
        where (c.first_name, c.last_name, c.phone, c.company) is distinct from
              (excluded.first_name, excluded.last_name, coalesce(excluded.phone, c.phone), coalesce(excluded.company, c.company))
           or not (c.tags @> excluded.tags)
        returning c.id, c.first_name, c.last_name, c.email, c.phone, c.company, c.tags, c.notes, lower(c.email) as key, (xmax = 0) as inserted
        )
        select w.*, b.first_name as was_first_name, b.last_name as was_last_name, b.phone as was_phone, b.company as was_company, b.tags as was_tags
        from written w left join before b on b.id = w.id`;
      const added = pick(batch, withoutEmail);
      const inserted = await tx<Written[]>`
        insert into contacts.contacts (user_id, first_name, last_name, email, phone, company, tags, phone_e164, created_by, updated_by)
        select ${userId}, first_name, last_name, null, phone, company,
          coalesce(string_to_array(nullif(tags, ''), ${TAG_SEPARATOR}), '{}'), phone_e164, ${member}::uuid, ${member}::uuid
        from unnest(${added.firstName}::text[], ${added.lastName}::text[],
          ${added.phone}::text[], ${added.company}::text[], ${added.tags}::text[], ${added.phoneE164}::text[])
          as r(first_name, last_name, phone, company, tags, phone_e164)
        returning id, first_name, last_name, email, phone, company, tags, notes, null as key, true as inserted`;
      const outcome = { keys: upserted.map(({ key, inserted }) => ({ key: key!, inserted })), insertedWithoutEmail: inserted.length };
      await this.outbox.append(tx, [announce(outcome), ...writtenEvents(userId, [...upserted, ...inserted])]);
      return outcome;
    });
  }

  /** What merge() would do, read-only: the same comparison against the stored contacts. */
  private async compare(userId: string, batch: Batch, withoutEmail: number[]): Promise<BatchOutcome> {
    const sql = this.db.sql;
    const keys = await sql<{ key: string; inserted: boolean }[]>`
      with source as (${this.source(sql, batch)})
      select lower(s.email) as key, c.id is null as inserted
      from source s
      left join contacts.contacts c on c.user_id = ${userId} and lower(c.email) = lower(s.email) and c.email is not null
      where c.id is null
         or (c.first_name, c.last_name, c.phone, c.company) is distinct from
            (s.first_name, s.last_name, coalesce(s.phone, c.phone), coalesce(s.company, c.company))
         or not (c.tags @> s.tags)`;
    return { keys: [...keys], insertedWithoutEmail: withoutEmail.length };
  }
}

/** The batch's rows at `indexes`, as the same column arrays. */
function pick(batch: Batch, indexes: number[]): Batch {
  const at = <T>(column: T[]): T[] => indexes.map((i) => column[i] as T);
  return {
    line: at(batch.line),
    firstName: at(batch.firstName),
    lastName: at(batch.lastName),
    email: at(batch.email),
    phone: at(batch.phone),
    company: at(batch.company),
    tags: at(batch.tags),
    phoneE164: at(batch.phoneE164),
  };
}

function push(batch: Batch, [line, firstName, lastName, email, phone, company, tags, e164]: TextRow): void {
  batch.line.push(Number(line));
  batch.firstName.push(firstName!);
  batch.lastName.push(lastName!);
  batch.email.push(email ?? null);
  batch.phone.push(phone ?? null);
  batch.company.push(company ?? null);
  batch.tags.push(tags ?? '');
  batch.phoneE164.push(e164 ?? null);
}
