import { useState } from 'react';
import type { ContactSelection } from './api';

/** Picked ids go to the server this many at a time, so a large selection shows real progress. */
export const BULK_CHUNK = 250;

export interface BulkProgress {
  label: string;
  /** Contacts done so far, of `total`; null while one request works on a whole filter (no fraction to show). */
  done: number | null;
  total: number;
}

/**
 * Runs a bulk action with a progress indicator: a selection of ids in chunks
 * (each its own transaction, so a stop midway leaves whole chunks done and the
 * rest untouched), a filter ("all N matching") or an action that must stay one
 * request (an export: one file) in one request.
 */
export function useBulkRun() {
  const [progress, setProgress] = useState<BulkProgress | null>(null);

  async function run<T>(
    label: string,
    selection: ContactSelection,
    total: number,
    act: (part: ContactSelection) => Promise<T>,
    { chunked = true }: { chunked?: boolean } = {},
  ): Promise<T[]> {
    const ids = selection.ids;
    try {
      if (!ids || !chunked) {
        setProgress({ label, done: null, total });
        return [await act(selection)];
      }
      const results: T[] = [];
      setProgress({ label, done: 0, total: ids.length });
      for (let start = 0; start < ids.length; start += BULK_CHUNK) {
        const part = ids.slice(start, start + BULK_CHUNK);
        results.push(await act({ ids: part }));
        setProgress({ label, done: Math.min(start + part.length, ids.length), total: ids.length });
      }
      return results;
    } finally {
      setProgress(null);
    }
  }

  return { progress, run };
}
