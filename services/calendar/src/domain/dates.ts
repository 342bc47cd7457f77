import { badRequest, parseInstant } from '@asistente/kit';

export interface Range {
  from: Date;
  to: Date;
}

/** [from, to) with to after from and at most `maxDays` long. */
export function parseRange(fromText: string, toText: string, maxDays = 400): Range {
  return checkRange(parseInstant(fromText, 'La fecha de inicio'), parseInstant(toText, 'La fecha de fin'), maxDays);
}

export function checkRange(from: Date, to: Date, maxDays = 400): Range {
  if (to.getTime() <= from.getTime()) throw badRequest('La fecha de fin debe ser posterior a la de inicio', 'INVALID_RANGE');
  if (to.getTime() - from.getTime() > maxDays * 86_400_000) throw badRequest(`El rango de fechas admite como máximo ${maxDays} días`, 'INVALID_RANGE');
  return { from, to };
}

const DAY_MS = 86_400_000;

/** A provider's exclusive all-day end (Google's, Graph's), shown as the last day the event covers. */
export function lastDay(startDate: string, endDate: string | null): string {
  if (!endDate) return startDate;
  const previous = new Date(Date.parse(`${endDate}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  return previous < startDate ? startDate : previous;
}
