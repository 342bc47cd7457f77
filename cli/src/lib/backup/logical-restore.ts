import type { Sql, TransactionSql } from '@asistente/kit';
import { CliError } from '../errors.js';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, readLines, type Line, type Manifest } from './archive.js';
import { quoteTable, serviceTables } from './catalog.js';

export interface LoadSummary {
  tables: Record<string, number>;
  rows: number;
}

const INSERT_ROWS = 500;

/** The archive's first line, checked: anything else is not one of our backups. */
export async function readManifest(file: string): Promise<Manifest> {
  for await (const line of readLines(file)) {
    let manifest: Partial<Manifest>;
    try {
      manifest = JSON.parse(line) as Partial<Manifest>;
    } catch {
      break;
    }
    if (manifest.format !== ARCHIVE_FORMAT) break;
    if (manifest.version !== ARCHIVE_VERSION) throw new CliError(`La copia tiene el formato ${String(manifest.version)}, que esta versión no sabe leer`);
    return manifest as Manifest;
  }
  throw new CliError(`${file} no es una copia de seguridad de Mi Asistente.IA`);
}

/**
 * Replaces every service table's rows with the archive's, in one transaction: a broken or cut-short
 * archive leaves the database as it was. The schema must already be at the archive's migration version.
 * Triggers and foreign-key checks are off while loading (`session_replication_role = replica`): the rows
 * were consistent when dumped, and in this order no table could be loaded before the ones it points to.
 */
export async function loadArchive(sql: Sql, file: string): Promise<LoadSummary> {
  return (await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    const known = new Set(await serviceTables(tx));
    // What the migrations seeded is in the archive too, as it was then.
    if (known.size > 0) await tx.unsafe(`truncate table ${[...known].map(quoteTable).join(', ')} restart identity cascade`);
    const summary: LoadSummary = { tables: {}, rows: 0 };
    let table: string | undefined;
    let insert: ((rows: string[]) => Promise<void>) | undefined;
    let pending: string[] = [];
    let loaded = 0;
    let complete = false;
    let first = true;
    for await (const text of readLines(file)) {
      if (first) {
        first = false; // the manifest, read by readManifest
        continue;
      }
      if (text.startsWith('{')) {
        if (!insert) throw damaged();
        pending.push(text);
        if (pending.length >= INSERT_ROWS) {
          await insert(pending);
          loaded += pending.length;
          pending = [];
        }
        continue;
      }
      const line = JSON.parse(text) as Line;
      if (line[0] === 'table') {
        if (!known.has(line[1])) throw new CliError(`La copia tiene la tabla ${line[1]}, que no existe en esta base de datos`);
        table = line[1];
        insert = await inserter(tx, table);
        loaded = 0;
      } else if (line[0] === 'rows') {
        if (!insert || !table) throw damaged();
        if (pending.length > 0) await insert(pending);
        loaded += pending.length;
        pending = [];
        if (loaded !== line[1]) throw damaged();
        summary.tables[table] = loaded;
        summary.rows += loaded;
        table = undefined;
        insert = undefined;
      } else if (line[0] === 'sequences') {
        for (const { name, value } of line[1]) await tx`select setval(${name}::regclass, ${value}::bigint, true)`;
      } else if (line[0] === 'end') {
        complete = line[1].rows === summary.rows;
      }
    }
    if (!complete) throw damaged();
    return summary;
  })) as LoadSummary;
}

function damaged(): CliError {
  return new CliError('La copia está dañada o incompleta: no se ha restaurado nada');
}

/** Inserts a batch of `to_jsonb` rows into `table`, every column but the generated ones, ids as they were. */
async function inserter(tx: TransactionSql, table: string): Promise<(rows: string[]) => Promise<void>> {
  const columns = await tx<{ name: string }[]>`
    select attname as name from pg_attribute
     where attrelid = ${quoteTable(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
     order by attnum`;
  const list = columns.map(({ name }) => `"${name.replaceAll('"', '""')}"`).join(', ');
  const target = quoteTable(table);
  const statement = `insert into ${target} (${list}) overriding system value select ${list} from jsonb_populate_recordset(null::${target}, $1::text::jsonb)`;
  return async (rows) => {
    // Sent as text: typed jsonb, the driver would JSON-encode the already-encoded array into one string.
    await tx.unsafe(statement, [`[${rows.join(',')}]`]);
  };
}
