import type { CsvColumn } from '@asistente/contracts';

/** One contact of an uploaded file, whatever its format (a CSV row, a vCard), keyed by column, with the line it starts on. */
export interface CsvRecord {
  line: number;
  values: Partial<Record<CsvColumn, string>>;
}
