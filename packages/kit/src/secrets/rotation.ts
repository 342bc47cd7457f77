// Re-encrypts stored secrets under the primary key, in batches, without knowing the database: the caller
// (e.g. `asistente admin rotate-keys`) supplies the SQL through `fetchBatch` and `writeRow`.
// It is safe to kill and rerun: rows are visited in id order, rows already on the primary key are skipped,
// and each write is a compare-and-set, so a rerun only does the work the previous run left.

import { SecretDecryptError, type SecretBox, type SecretContext } from './envelope.js';

/** A column holding envelopes; `table` is schema-qualified, e.g. `ai.provider_keys`. */
export interface SecretColumn {
  readonly table: string;
  readonly column: string;
}

export interface SecretRow {
  readonly id: string;
  readonly userId: string;
  readonly value: string;
}

/**
 * Up to `limit` rows of `col` with `id > afterId` (all from the start when `afterId` is null), ordered by
 * id, skipping NULL values. Returning every row is expected (verification needs them); for rotation a
 * fetcher that also skips rows already on the primary key works too.
 */
export type FetchBatch = (col: SecretColumn, afterId: string | null, limit: number) => Promise<readonly SecretRow[]>;

/**
 * Stores `newValue` only if the row still holds `oldValue` (`UPDATE ... WHERE id = $id AND col = $old`),
 * so a secret the user changed meanwhile is never overwritten. Resolves whether it wrote.
 */
export type WriteRow = (col: SecretColumn, id: string, oldValue: string, newValue: string) => Promise<boolean>;

export interface RotationCounts {
  scanned: number;
  /** Rewritten under the primary key (in a dry run: would be). */
  rotated: number;
  alreadyCurrent: number;
  /** Changed by someone else between read and write; a rerun picks it up if it still needs it. */
  conflicts: number;
  /** Could not be decrypted with any key in the ring, or not an envelope at all. */
  failed: number;
}

export interface RotationProgress {
  readonly column: SecretColumn;
  readonly lastId: string;
  /** Running totals across all columns so far. */
  readonly counts: Readonly<RotationCounts>;
}

interface ScanOptions {
  box: SecretBox;
  columns: readonly SecretColumn[];
  fetchBatch: FetchBatch;
  batchSize?: number;
  onFailure?: (column: SecretColumn, id: string) => void;
}

export interface RotateOptions extends ScanOptions {
  writeRow: WriteRow;
  dryRun?: boolean;
  onProgress?: (progress: RotationProgress) => void;
}

export type VerifyOptions = ScanOptions;

export interface VerifyCounts {
  scanned: number;
  ok: number;
  failed: number;
}

const DEFAULT_BATCH_SIZE = 500;

export async function rotateSecrets(options: RotateOptions): Promise<RotationCounts> {
  const { box, writeRow, dryRun = false, onProgress, onFailure } = options;
  const counts: RotationCounts = { scanned: 0, rotated: 0, alreadyCurrent: 0, conflicts: 0, failed: 0 };

  for await (const { column, rows, lastId } of batches(options)) {
    for (const row of rows) {
      counts.scanned++;
      let resealed: string;
      try {
        if (!box.needsRotation(row.value)) {
          counts.alreadyCurrent++;
          continue;
        }
        resealed = box.reseal(row.value, contextOf(column, row));
      } catch (error) {
        if (!(error instanceof SecretDecryptError)) throw error;
        // One unreadable row must not stop the rotation of the rest; it is counted and reported.
        counts.failed++;
        onFailure?.(column, row.id);
        continue;
      }
      if (dryRun || (await writeRow(column, row.id, row.value, resealed))) counts.rotated++;
      else counts.conflicts++;
    }
    onProgress?.({ column, lastId, counts: { ...counts } });
  }
  return counts;
}

/** Opens every stored value (e.g. before dropping an old key) and counts the ones that fail. */
export async function verifySecrets(options: VerifyOptions): Promise<VerifyCounts> {
  const { box, onFailure } = options;
  const counts: VerifyCounts = { scanned: 0, ok: 0, failed: 0 };

  for await (const { column, rows } of batches(options)) {
    for (const row of rows) {
      counts.scanned++;
      try {
        box.open(row.value, contextOf(column, row));
        counts.ok++;
      } catch (error) {
        if (!(error instanceof SecretDecryptError)) throw error;
        counts.failed++;
        onFailure?.(column, row.id);
      }
    }
  }
  return counts;
}

// Keyset pagination (id > last seen) rather than offsets: rows rewritten during the scan do not shift
// later pages, and each page costs the same however far in we are.
async function* batches(
  options: ScanOptions,
): AsyncGenerator<{ column: SecretColumn; rows: readonly SecretRow[]; lastId: string }> {
  const { columns, fetchBatch, batchSize = DEFAULT_BATCH_SIZE } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');

  for (const column of columns) {
    let afterId: string | null = null;
    for (;;) {
      const rows = await fetchBatch(column, afterId, batchSize);
      const last = rows.at(-1);
      if (last === undefined) break;
      yield { column, rows, lastId: last.id };
      if (rows.length < batchSize) break;
      afterId = last.id;
    }
  }
}

function contextOf(column: SecretColumn, row: SecretRow): SecretContext {
  return { userId: row.userId, table: column.table, column: column.column };
}
