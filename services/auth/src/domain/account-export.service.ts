import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ACCOUNT_EXPORT_TTL_HOURS, type AccountExport, type AccountExportStarted } from '@asistente/contracts';
import { AppError, notFound, securityActivityEvent, type Outbox, type SecurityClient, type Sql } from '@asistente/kit';
import type { AccountExportBuilder } from './account-export.builder.js';
import type { AccountExportsRepository, ExportRow } from './account-exports.repository.js';

export const EXPORT_NOT_FOUND = 'No existe esa exportación de datos';
export const EXPORT_EXPIRED = `La descarga ha caducado (dura ${ACCOUNT_EXPORT_TTL_HOURS} horas): pide una nueva exportación`;
export const EXPORT_NOT_READY = 'La exportación todavía no está lista';

const expired = () => new AppError(410, 'EXPORT_EXPIRED', EXPORT_EXPIRED);

/** "Descargar mis datos": asked for (logged in the security log), followed, downloaded by its owner for 24 hours. */
export class AccountExportService {
  constructor(
    private readonly deps: { sql: Sql; exports: AccountExportsRepository; builder: AccountExportBuilder; outbox: Outbox },
  ) {}

  /** Starts a build, or answers the one of this user still running (one archive at a time per user). */
  async start(userId: string, client: SecurityClient): Promise<AccountExportStarted> {
    const { id, created } = await this.deps.sql.begin(async (tx) => {
      // Serializes two clicks of the same user: the second finds the first's row.
      await tx`select pg_advisory_xact_lock(hashtextextended(${`auth.account_exports:${userId}`}, 0))`;
      const running = await this.deps.exports.running(tx, userId);
      if (running) return { id: running, created: false };
      const id = randomUUID();
      await this.deps.exports.create(tx, id, userId, ACCOUNT_EXPORT_TTL_HOURS);
      await this.deps.outbox.append(tx, [securityActivityEvent(userId, 'export.requested', client)]);
      return { id, created: true };
    });
    if (created) this.deps.builder.start(id, userId);
    return { id, status: 'running' };
  }

  async status(userId: string, id: string): Promise<AccountExport> {
    const row = await this.owned(userId, id);
    const view: AccountExport = { id: row.id, status: row.status, progress: row.progress, createdAt: row.createdAt.toISOString() };
    if (row.status !== 'ready') return view;
    return { ...view, downloadUrl: `/api/account/export/${row.id}/download`, expiresAt: row.expiresAt.toISOString(), size: Number(row.size) };
  }

  /** The ZIP, read back one stored chunk at a time: a download never holds the archive. */
  async download(userId: string, id: string): Promise<{ stream: Readable; size: number; createdAt: Date }> {
    const row = await this.owned(userId, id);
    if (row.status !== 'ready') throw new AppError(409, 'EXPORT_NOT_READY', EXPORT_NOT_READY);
    const exports = this.deps.exports;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; ; seq++) {
        const chunk = await exports.chunk(id, seq);
        if (!chunk) return;
        yield chunk;
      }
    }
    return { stream: Readable.from(chunks(), { objectMode: false }), size: Number(row.size), createdAt: row.createdAt };
  }

  /** Another user's export is a 404 like a missing one; the owner's past its 24 hours is a 410 until purged. */
  private async owned(userId: string, id: string): Promise<ExportRow> {
    const row = await this.deps.exports.find(userId, id);
    if (!row) throw notFound(EXPORT_NOT_FOUND);
    if (row.expiresAt.getTime() <= Date.now()) throw expired();
    return row;
  }
}
