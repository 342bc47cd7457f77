import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ACCOUNT_EXPORT_TTL_HOURS, type AccountExport, type AccountExportStarted } from '@asistente/contracts';
import { AppError, notFound, securityActivityEvent, type ActingMember, type Outbox, type SecurityClient, type Sql } from '@asistente/kit';
import type { AccountExportBuilder } from './account-export.builder.js';
import type { AccountExportsRepository, ExportRow } from './account-exports.repository.js';

export const EXPORT_NOT_FOUND = 'No existe esa exportación de datos';
export const EXPORT_EXPIRED = `La descarga ha caducado (dura ${ACCOUNT_EXPORT_TTL_HOURS} horas): pide una nueva exportación`;
export const EXPORT_NOT_READY = 'La exportación todavía no está lista';
export const EXPORT_RUNNING = 'Ya se está preparando un archivo con tus datos. Espera a que termine para pedir otro.';

/** Archives one account may ask for in a day: each reads every row the account holds. */
export const EXPORTS_PER_DAY = 3;
export const EXPORTS_WINDOW_SECONDS = 24 * 3600;

const expired = () => new AppError(410, 'EXPORT_EXPIRED', EXPORT_EXPIRED);

/** "5 horas y 12 minutos", "1 hora", "3 minutos": a wait in the words the user reads. */
function spanishWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  const hours = h === 0 ? '' : h === 1 ? '1 hora' : `${h} horas`;
  const rest = m === 0 ? '' : m === 1 ? '1 minuto' : `${m} minutos`;
  return hours && rest ? `${hours} y ${rest}` : hours || rest;
}

function exportsPerDayReached(waitSeconds: number): AppError {
  const error = new AppError(
    429,
    'EXPORT_DAILY_LIMIT',
    `Ya pediste ${EXPORTS_PER_DAY} archivos con tus datos en las últimas 24 horas. Podrás pedir otro dentro de ${spanishWait(waitSeconds)}.`,
  );
  error.headers = { 'retry-after': String(waitSeconds) };
  return error;
}

/** An export as its owner follows it: the download's address, expiry and size once ready. */
function view(row: ExportRow): AccountExport {
  const base: AccountExport = { id: row.id, status: row.status, progress: row.progress, createdAt: row.createdAt.toISOString() };
  if (row.status !== 'ready') return base;
  return { ...base, downloadUrl: `/api/account/export/${row.id}/download`, expiresAt: row.expiresAt.toISOString(), size: Number(row.size) };
}

/** "Descargar mis datos": asked for (logged in the security log), followed, downloaded by its owner for 24 hours. */
export class AccountExportService {
  constructor(
    private readonly deps: { sql: Sql; exports: AccountExportsRepository; builder: AccountExportBuilder; outbox: Outbox },
  ) {}

  /**
   * Starts a build: one at a time per person (409 while one runs) and at most EXPORTS_PER_DAY in 24 hours (429
   * saying when the next may start). Every archive reads the whole account, so neither is left to the client.
   * The owner's holds the workspace and their own data; any other member's, their own only.
   */
  async start(member: ActingMember, client: SecurityClient): Promise<AccountExportStarted> {
    const userId = member.id;
    const id = await this.deps.sql.begin(async (tx) => {
      // Serializes two clicks of the same user, at any replica: the second finds the first's row.
      await tx`select pg_advisory_xact_lock(hashtextextended(${`auth.account_exports:${userId}`}, 0))`;
      if (await this.deps.exports.running(tx, userId)) throw new AppError(409, 'EXPORT_RUNNING', EXPORT_RUNNING);
      const wait = await this.deps.exports.secondsUntilAnother(tx, userId, EXPORTS_PER_DAY, EXPORTS_WINDOW_SECONDS);
      if (wait !== undefined) throw exportsPerDayReached(wait);
      const id = randomUUID();
      await this.deps.exports.create(tx, id, userId, ACCOUNT_EXPORT_TTL_HOURS);
      await this.deps.outbox.append(tx, [securityActivityEvent(member.workspaceId, 'export.requested', client)]);
      return id;
    });
    this.deps.builder.start(id, { scope: member.role === 'owner' ? 'workspace' : 'member', member });
    return { id, status: 'running' };
  }

  async status(userId: string, id: string): Promise<AccountExport> {
    return view(await this.owned(userId, id));
  }

  /** What the card shows on opening: the build still running, or the archive still downloadable. */
  async current(userId: string): Promise<AccountExport | null> {
    const row = await this.deps.exports.current(userId);
    return row ? view(row) : null;
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
