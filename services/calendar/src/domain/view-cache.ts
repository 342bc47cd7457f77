import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LruMap } from '@asistente/kit';
import type { Range } from './dates.js';

const compress = promisify(gzip);

/** A view ready to send: the JSON as UTF-8 bytes (encoded once, not on every answer) and its entity tag. */
export interface JsonView {
  body: Buffer;
  /** Weak: the plain and the gzipped bytes are the same view. */
  etag: string;
  /** The gzipped bytes, made on the first request that accepts them and kept with the view. */
  gzipped: () => Promise<Buffer>;
}

/** The view of a JSON text the database built; the tag is a hash of the bytes, so equal answers share it. */
export function jsonView(json: string): JsonView {
  const body = Buffer.from(json, 'utf8');
  let gzipped: Promise<Buffer> | undefined;
  return {
    body,
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    gzipped: () => (gzipped ??= compress(body)),
  };
}

/**
 * Views of the mirror (a month's normalised events) kept in this process, keyed by the versions of the
 * calendars they were built from. The versions come from the database on every request, so a change made
 * by any process (a sync, a write) is a different key: a replica never serves another's stale view.
 */
export class ViewCache {
  private readonly views: LruMap<JsonView>;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {
    this.views = new LruMap(maxBytes, (view) => view.body.byteLength);
  }

  static key(userId: string, calendars: { id: string; version: string }[], range: Range): string {
    return JSON.stringify([userId, calendars.map((c) => [c.id, c.version]), range.from.getTime(), range.to.getTime()]);
  }

  get(key: string): JsonView | undefined {
    return this.views.get(key);
  }

  /** A view over a sixteenth of the budget is not kept: one huge month would push out every other. */
  set(key: string, value: JsonView): void {
    if (value.body.byteLength > this.maxBytes / 16) return;
    this.views.set(key, value);
  }
}
