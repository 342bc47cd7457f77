import { Writable } from 'node:stream';
import type { AccountExportsRepository } from './account-exports.repository.js';

/** Bytes per stored chunk: one row, one query, one read when downloading. */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;

/**
 * Where the ZIP streams to: rows of about 1 MB in auth.account_export_chunks, written in order. Each write
 * completes only once its row is stored, so the archive (and the services' pages before it) wait for the
 * database: memory holds at most one chunk.
 */
export class ExportChunkSink extends Writable {
  private buffered: Buffer[] = [];
  private length = 0;
  private seq = 0;
  /** Bytes stored so far: the ZIP's size once finished. */
  size = 0;

  constructor(
    private readonly exports: AccountExportsRepository,
    private readonly exportId: string,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.buffered.push(chunk);
    this.length += chunk.length;
    if (this.length < EXPORT_CHUNK_BYTES) return callback();
    this.flush().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush().then(() => callback(), callback);
  }

  private async flush(): Promise<void> {
    if (this.length === 0) return;
    const data = Buffer.concat(this.buffered, this.length);
    this.buffered = [];
    this.length = 0;
    await this.exports.appendChunk(this.exportId, this.seq++, data);
    this.size += data.length;
  }
}
