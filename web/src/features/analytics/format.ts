const dayMonth = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const fullDate = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const count = new Intl.NumberFormat('es-ES');
const oneDecimal = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// The server already cut days in the user's zone: read 'YYYY-MM-DD' as UTC so no zone shifts it again.
const day = (date: string) => new Date(`${date}T00:00:00Z`);

/** '21 nov' */
export const shortDate = (date: string): string => dayMonth.format(day(date));

/** '21 de noviembre de 2026' */
export const longDate = (date: string): string => fullDate.format(day(date));

export const formatCount = (value: number): string => count.format(value);

/** '52,8%' */
export const formatPercent = (value: number): string => `${oneDecimal.format(value)}%`;

/** Opened over sent, as a percentage; 0 when nothing was sent. */
export const openRate = (opened: number, sent: number): number => (sent > 0 ? (opened / sent) * 100 : 0);

/**
 * A duration in words, as a person says it: '45 s', '3 min', '1 h 20 min', '2 días 3 h'; '—' when there is none.
 * Past a minute it is rounded to the minute, past a day to the hour.
 */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const label = `${days} ${days === 1 ? 'día' : 'días'}`;
  return hours % 24 ? `${label} ${hours % 24} h` : label;
}
