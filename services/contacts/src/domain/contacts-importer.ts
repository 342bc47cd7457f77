import type { ImportReport } from '@asistente/contracts';
import { bulkLoad, createEvent, type Database, type Logger, type Outbox, type TextRow, type TransactionSql } from '@asistente/kit';
import { readCsv } from './csv-records.js';
import { importRow, TAG_SEPARATOR } from './import-row.js';

/** A report lists this many bad lines at most; a broken 1M-line file must not answer 1M errors. */
export const MAX_REPORTED_ERRORS = 1000;

const STAGING_COLUMNS = ['line', 'first_name', 'last_name', 'email', 'phone', 'company', 'tags'];

/** An import writing at least this many rows refreshes the planner's view of the table before answering. */
export const SETTLE_AFTER_ROWS = 10_000;

class DryRunRollback extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

/**
 * CSV import: the upload streams through validation into a temporary
 * staging table (COPY, or batched inserts on PGlite), then one set-based
 * merge upserts by (user, lower(email)). Memory stays flat whatever the file
 * size. A dry run does the same work and rolls it back, so its counts are exact.
 */
export class ContactsImporter {
  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async import(userId: string, body: AsyncIterable<Buffer | string>, dryRun = false): Promise<ImportReport> {
    const csv = await readCsv(body);
    const errors: ImportReport['errors'] = [];
    let failed = 0;
    const fail = (line: number, message: string) => {
      failed++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, message });
    };
    async function* validRows(): AsyncGenerator<TextRow> {
      for await (const record of csv.records) {
        const result = importRow(record, csv.delimiter);
        if (result.ok) yield result.row;
        else fail(record.line, result.message);
      }
    }

    let report: ImportReport;
    try {
      report = await this.db.sql.begin(async (tx) => {
        await tx`
          create temp table import_rows (
            line text, first_name text, last_name text, email text, phone text, company text, tags text
          ) on commit drop`;
        const staged = await bulkLoad(this.db, tx, 'import_rows', STAGING_COLUMNS, validRows());
        for (const bad of csv.unreadable) fail(bad.line, bad.message);
        errors.sort((a, b) => a.line - b.line);
        const { created, updated } = await this.merge(tx, userId);
        const counts = { created, updated, skipped: staged - created - updated, errors };
        if (dryRun) throw new DryRunRollback(counts);
        await this.outbox.append(tx, [
          createEvent('contacts.contact.imported', userId, { created, updated, skipped: counts.skipped, failed }),
        ]);
        return counts;
      });
    } catch (error) {
      if (error instanceof DryRunRollback) return error.report;
      throw error;
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
    const sql = this.db.sql;
    try {
      await sql`select gin_clean_pending_list('contacts.contacts_search_trgm'::regclass)`;
      await sql`analyze contacts.contacts`;
    } catch (error) {
      this.log.warn({ err: error }, 'table statistics not refreshed after a large import');
    }
  }

  /**
   * Rows with an email upsert (the last line wins inside the file; existing
   * phone/company survive a blank cell; tags are merged). Rows without one are
   * new contacts. Unchanged contacts are not rewritten and count as skipped.
   */
  private async merge(tx: TransactionSql, userId: string): Promise<{ created: number; updated: number }> {
    const [withEmail] = await tx<{ created: string; updated: string }[]>`
      with source as (
        select distinct on (lower(email)) first_name, last_name, email, phone, company,
          coalesce(string_to_array(nullif(tags, ''), ${TAG_SEPARATOR}), '{}') as tags
        from import_rows where email is not null
        order by lower(email), line::int desc
      ), merged as (
        insert into contacts.contacts as c (user_id, first_name, last_name, email, phone, company, tags)
        select ${userId}, first_name, last_name, email, phone, company, tags from source
        on conflict (user_id, lower(email)) where email is not null do update set
          first_name = excluded.first_name,
          last_name = excluded.last_name,
          phone = coalesce(excluded.phone, c.phone),
          company = coalesce(excluded.company, c.company),
          tags = array(select distinct t from unnest(c.tags || excluded.tags) as t order by t),
          updated_at = now()
        where (c.first_name, c.last_name, c.phone, c.company) is distinct from
              (excluded.first_name, excluded.last_name, coalesce(excluded.phone, c.phone), coalesce(excluded.company, c.company))
           or not (c.tags @> excluded.tags)
        returning (xmax = 0) as inserted
      )
      select count(*) filter (where inserted) as created, count(*) filter (where not inserted) as updated from merged`;
    const inserted = await tx`
      insert into contacts.contacts (user_id, first_name, last_name, email, phone, company, tags)
      select ${userId}, first_name, last_name, null, phone, company,
        coalesce(string_to_array(nullif(tags, ''), ${TAG_SEPARATOR}), '{}')
      from import_rows where email is null`;
    return { created: Number(withEmail?.created ?? 0) + inserted.count, updated: Number(withEmail?.updated ?? 0) };
  }
}
