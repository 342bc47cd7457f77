import { badRequest } from '@asistente/kit';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO date or date-time from a request. A date alone is that day's midnight UTC; a date-time without an
 * offset is read as UTC too (the screens send instants with their offset). `what` names it in the 400.
 */
export function parseInstant(text: string, what: string): Date {
  const value = text.trim();
  let ms = Number.NaN;
  if (DATE_ONLY.test(value)) ms = Date.parse(`${value}T00:00:00Z`);
  else if (DATE_TIME.test(value)) ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
  if (Number.isNaN(ms)) throw badRequest(`${what} no es una fecha válida`, 'INVALID_DATE');
  return new Date(ms);
}

/** A calendar date (YYYY-MM-DD) as its midnight UTC; `what` names it in the 400. */
export function parseDay(text: string, what: string): Date {
  const value = text.trim();
  const ms = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw badRequest(`${what} debe ser una fecha (AAAA-MM-DD) en un evento de todo el día`, 'INVALID_DATE');
  }
  return new Date(ms);
}

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
