import { csvLine, keysetPart, neutralizeFormula, type AccountExportPart } from '@asistente/kit';
import type { AccountExportRepository } from './account-export.repository.js';

const PAGE_ROWS = 10_000;
const line = (cells: string[]) => csvLine(cells.map(neutralizeFormula));
const instant = (at: string | null) => (at ? new Date(at).toISOString() : '');

/**
 * The analytics' share of "Descargar mis datos", as CSV: the hourly rollups, the running totals, and the team
 * inbox's rows per conversation (its openings, and who answered it last when).
 */
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
    keysetPart(
      'conversaciones.csv',
      {
        rows: (userId, after, limit) => repository.openings(userId, after ? (JSON.parse(after) as [string, string, string]) : undefined, limit),
        key: (r) => JSON.stringify([r.conversationId, r.openedAt, r.openedBy]),
      },
      {
        head: line(['conversacion', 'abierta', 'primera_respuesta', 'autor_primera_respuesta', 'miembro_primera_respuesta', 'asignada_a', 'resuelta', 'resuelta_por']),
        body: (rows) =>
          rows
            .map((r) =>
              line([
                r.conversationId,
                instant(r.openedAt),
                instant(r.firstAnswerAt),
                r.firstAnswerAuthor ?? '',
                r.firstAnswerMember ?? '',
                r.assigneeId ?? '',
                instant(r.resolvedAt),
                r.resolvedBy ?? '',
              ]),
            )
            .join(''),
        tail: '',
      },
      PAGE_ROWS,
    ),
    keysetPart(
      'respuestas.csv',
      {
        rows: (userId, after, limit) => repository.answerers(userId, after ? (JSON.parse(after) as [string, string]) : undefined, limit),
        key: (r) => JSON.stringify([r.conversationId, r.answerer]),
      },
      {
        head: line(['conversacion', 'respondida_por', 'ultima_respuesta']),
        body: (rows) => rows.map((r) => line([r.conversationId, r.answerer, instant(r.lastAnsweredAt)])).join(''),
        tail: '',
      },
      PAGE_ROWS,
    ),
  ];
}
