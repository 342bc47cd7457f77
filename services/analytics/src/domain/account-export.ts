import { csvLine, keysetPart, neutralizeFormula, type AccountExportPart } from '@asistente/kit';
import type { AccountExportRepository } from './account-export.repository.js';

const PAGE_ROWS = 10_000;
const line = (cells: string[]) => csvLine(cells.map(neutralizeFormula));

/** The analytics' share of "Descargar mis datos": the hourly rollups and the running totals, as CSV. */
export function analyticsExportParts(repository: AccountExportRepository): AccountExportPart[] {
  return [
    keysetPart(
      'por-hora.csv',
      { rows: (userId, after, limit) => repository.hourly(userId, after ? (JSON.parse(after) as [string, string]) : undefined, limit), key: (r) => JSON.stringify([r.metric, r.hour]) },
      { head: line(['metrica', 'hora', 'valor']), body: (rows) => rows.map((r) => line([r.metric, new Date(r.hour).toISOString(), r.value])).join(''), tail: '' },
      PAGE_ROWS,
    ),
    keysetPart(
      'totales.csv',
      { rows: (userId, after, limit) => repository.totals(userId, after, limit), key: (r) => r.metric },
      { head: line(['metrica', 'valor']), body: (rows) => rows.map((r) => line([r.metric, r.value])).join(''), tail: '' },
      PAGE_ROWS,
    ),
  ];
}
