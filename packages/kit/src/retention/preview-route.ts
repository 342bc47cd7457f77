import { ErrorResponse, RetentionPreview, RetentionPreviewQuery } from '@asistente/contracts';
import type { Sql } from '../db/database.js';
import { retentionCutoff } from '../db/periodic-job.js';
import type { App } from '../http/app.js';

/** How many rows of `userId` older than `before` the service's retention job would erase (or empty): what its steps touch. */
export type RetentionCount = (sql: Sql, userId: string, before: Date) => Promise<number>;

/**
 * `GET /<prefix>/retention/preview?days=N`: how much of this service's data a retention of N days would erase
 * now, so "Conservación de datos" says it before a shorter period is saved. Read only. `keyedBy`, as the
 * account export: the workspace's shared data, or the person's own (their mail).
 */
export function retentionPreviewRoute(app: App, prefix: string, sql: Sql, count: RetentionCount, keyedBy: 'workspace' | 'person' = 'workspace'): void {
  app.get(`${prefix}/retention/preview`, {
    schema: {
      summary: 'Cuántos datos borraría un plazo de conservación más corto',
      description: 'Lo que el borrado diario quitaría hoy con ese número de días: solo lectura, no borra nada.',
      querystring: RetentionPreviewQuery,
      response: { 200: RetentionPreview, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async (request) => {
      const { days } = request.query;
      const before = retentionCutoff(new Date(), days);
      const owner = keyedBy === 'person' ? request.user.id : request.user.workspaceId;
      return { days, before: before.toISOString(), count: await count(sql, owner, before) };
    },
  });
}
