import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * The embedded topology's backup file: gzip of JSON lines. The first line is the manifest; each table is a
 * `["table", "schema.name"]` line, one line per row (the row's `to_jsonb`, which keeps every value in
 * PostgreSQL's own text form: microseconds, numerics, bytea), and a `["rows", n]` line; then the sequences
 * and an `["end", …]` line, without which the file is taken as cut short. Plain text on purpose: any
 * PostgreSQL can read it back (`jsonb_populate_recordset`), whatever PGlite version wrote it.
 */
export const ARCHIVE_FORMAT = 'mi-asistente-backup';
export const ARCHIVE_VERSION = 1;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  createdAt: string;
  /** 'pglite': the embedded data directory. */
  source: 'pglite' | 'postgres';
  /** Applied migrations, in order: the restore loads the rows at this version, then applies the newer ones. */
  migrations: string[];
  schemas: string[];
  /** Ids (never the keys) of the key ring entries that sealed the secrets inside: the restore needs them. */
  secretKeyIds: string[];
}

export interface Sequence {
  name: string;
  value: string;
}

export type Line = ['table', string] | ['rows', number] | ['sequences', Sequence[]] | ['end', { tables: number; rows: number }];

/** The first bytes of a gzip stream and of a `pg_dump --format=custom` file: how restore tells them apart. */
export const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
export const PG_DUMP_MAGIC = Buffer.from('PGDMP');

export async function fileStartsWith(file: string, magic: Buffer): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(magic.length), 0, magic.length, 0);
    return bytesRead === magic.length && buffer.equals(magic);
  } finally {
    await handle.close();
  }
}

/**
 * Writes the archive beside `file` and renames it into place once complete: a failed or interrupted backup
 * never leaves a file that looks like a backup. Only the operator can read it (0600).
 */
export class ArchiveWriter {
  readonly #partial: string;
  readonly #gzip = createGzip();
  readonly #done: Promise<void>;

  constructor(readonly file: string) {
    this.#partial = `${file}.partial-${process.pid}`;
    const out = createWriteStream(this.#partial, { mode: 0o600 });
    this.#gzip.pipe(out);
    this.#done = finished(out);
  }

  /** Resolves when the stream can take more (back-pressure keeps memory flat on big tables). */
  async write(text: string): Promise<void> {
    if (!this.#gzip.write(`${text}\n`)) await new Promise((resolve) => this.#gzip.once('drain', resolve));
  }

  line(value: Manifest | Line): Promise<void> {
    return this.write(JSON.stringify(value));
  }

  async commit(): Promise<void> {
    this.#gzip.end();
    await this.#done;
    await rename(this.#partial, this.file);
  }

  async abort(): Promise<void> {
    this.#gzip.destroy();
    await this.#done.catch(() => undefined);
    await rm(this.#partial, { force: true });
  }
}

/** The archive's lines, decompressed as they are read. */
export function readLines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
}
