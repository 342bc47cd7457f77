import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { Archiver } from 'archiver';
import type { AccountExportPiece } from '@asistente/contracts';

/** A path of the archive, refused if it could climb out of its folder (a service's answer is checked too). */
export function safeArchivePath(folder: string, path: string): string {
  const parts = path.split('/');
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (parts.some((part) => part === '' || part === '.' || part === '..' || /[\\\u0000-\u001f]/.test(part))) {
    throw new Error(`unsafe archive path from ${folder}`);
  }
  return `${folder}/${path}`;
}

/**
 * Writes pieces into the ZIP as they come: consecutive pieces with the same path are one entry, streamed into
 * archiver through a PassThrough whose backpressure is awaited, so no entry is ever held whole.
 */
export class ZipEntries {
  private current: { path: string; stream: PassThrough } | undefined;

  constructor(private readonly archive: Archiver) {}

  async write(folder: string, pieces: readonly AccountExportPiece[]): Promise<void> {
    for (const piece of pieces) {
      const path = safeArchivePath(folder, piece.path);
      if (this.current?.path !== path) {
        this.close();
        const stream = new PassThrough();
        this.archive.append(stream, { name: path });
        this.current = { path, stream };
      }
      const data = piece.base64 !== undefined ? Buffer.from(piece.base64, 'base64') : Buffer.from(piece.text ?? '', 'utf8');
      if (data.length > 0 && !this.current.stream.write(data)) await once(this.current.stream, 'drain');
    }
  }

  /** Stops a write waiting on backpressure: the archive or its storage failed. */
  abort(error: Error): void {
    this.current?.stream.destroy(error);
    this.current = undefined;
  }

  /** Ends the entry being written (a part's last file, or before the archive is finalized). */
  close(): void {
    this.current?.stream.end();
    this.current = undefined;
  }
}
