import { pipeline } from 'node:stream/promises';
import type { Logger } from '@asistente/kit';
import type { ExportPlan, ExportSource } from './account-export-sources.js';
import type { AccountExportsRepository } from './account-exports.repository.js';
import { ExportChunkSink } from './export-chunk-sink.js';
import { ZipEntries } from './zip-entries.js';

/** Stopped by this replica's shutdown, or the row stopped being 'running' (read as stale, or deleted). */
class BuildStopped extends Error {}

/**
 * Builds archives in the background on the replica that was asked: every source's pages stream into a ZIP
 * (archiver) that streams into chunk rows. Progress and a heartbeat are written after each page; a build that
 * throws is marked failed and its chunks dropped; one whose replica dies is read as failed once its heartbeat
 * is stale (see AccountExportsRepository.find).
 */
export class AccountExportBuilder {
  private readonly running = new Map<string, { stop: AbortController; done: Promise<void> }>();

  constructor(
    private readonly deps: { exports: AccountExportsRepository; sources: readonly ExportSource[]; log: Logger },
  ) {}

  start(id: string, plan: ExportPlan): void {
    const stop = new AbortController();
    const done = this.build(id, plan, stop.signal).finally(() => this.running.delete(id));
    this.running.set(id, { stop, done });
  }

  /** Stops every build of this replica (shutdown) and waits for each to be marked failed. */
  async close(): Promise<void> {
    const builds = [...this.running.values()];
    for (const build of builds) build.stop.abort();
    await Promise.all(builds.map((build) => build.done));
  }

  private async build(id: string, plan: ExportPlan, signal: AbortSignal): Promise<void> {
    const { exports, log } = this.deps;
    const sources = this.deps.sources.filter((source) => plan.scope === 'workspace' || source.personal);
    // archiver (~8 MB resident) is loaded by the first export, not with the service: most days none is asked for.
    const { ZipArchive } = await import('archiver');
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const sink = new ExportChunkSink(exports, id);
    const entries = new ZipEntries(archive);
    const written = pipeline(archive, sink);
    // A storage failure ends the pipeline: a write waiting on backpressure must not wait forever.
    written.catch((error: unknown) => entries.abort(error instanceof Error ? error : new Error(String(error))));
    try {
      for (const [index, source] of sources.entries()) {
        let cursor: string | undefined;
        do {
          if (signal.aborted) throw new BuildStopped('replica closing');
          const page = await source.read(plan, cursor);
          await entries.write(source.folder, page.pieces);
          cursor = page.cursor ?? undefined;
          const share = page.cursor === null ? 1 : page.progress;
          // 100 is said only when the archive is stored.
          const progress = Math.min(99, Math.floor(((index + share) / sources.length) * 100));
          if (!(await exports.progress(id, progress))) throw new BuildStopped('export no longer running');
        } while (cursor !== undefined);
        entries.close();
      }
      await Promise.all([archive.finalize(), written]);
      await exports.finish(id, sink.size);
      log.info({ exportId: id, bytes: sink.size }, 'account export ready');
    } catch (error) {
      entries.abort(error instanceof Error ? error : new Error(String(error)));
      archive.abort();
      await written.catch(() => undefined);
      await exports.fail(id).catch((failure: unknown) => log.warn({ err: failure, exportId: id }, 'account export could not be marked failed'));
      if (error instanceof BuildStopped) log.info({ exportId: id, reason: error.message }, 'account export stopped');
      else log.warn({ err: error, exportId: id }, 'account export failed');
    }
  }
}
