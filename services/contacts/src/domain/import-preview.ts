import { CSV_COLUMNS, IMPORT_PREVIEW_ROWS, type ImportPreview } from '@asistente/contracts';
import { columnFor, detectDelimiter } from './csv-format.js';
import { csvRecords, parseRecord } from './csv-lines.js';
import { uploadLines } from './upload-lines.js';
import { vcardRecords } from './vcard.js';

/**
 * The mapping step's preview: the header, the field the import would give
 * each column (columnFor, the very recognition readCsv applies), the columns
 * left out, and the first rows. Reads no further than those rows.
 */
export async function previewImport(body: AsyncIterable<Buffer | string>): Promise<ImportPreview> {
  const { header: headerLine, rest } = await uploadLines(body);
  try {
    const rows: ImportPreview['rows'] = [];
    if (/^BEGIN:VCARD\s*$/i.test(headerLine)) {
      for await (const record of vcardRecords(rest)) {
        rows.push({ line: record.line, cells: CSV_COLUMNS.map((c) => record.values[c] ?? '') });
        if (rows.length >= IMPORT_PREVIEW_ROWS) break;
      }
      return { format: 'vcard', headers: [...CSV_COLUMNS], mapping: [...CSV_COLUMNS], unmapped: [], rows };
    }
    const delimiter = detectDelimiter(headerLine);
    const headers = parseRecord(headerLine, delimiter) ?? [];
    const mapping = headers.map((h) => columnFor(h) ?? '');
    for await (const event of csvRecords(rest, delimiter, 2)) {
      if (event.ok) rows.push({ line: event.record.line, cells: event.record.cells });
      if (rows.length >= IMPORT_PREVIEW_ROWS) break;
    }
    const unmapped = headers.filter((h, i) => mapping[i] === '' && h.trim() !== '');
    return { format: 'csv', headers, mapping, unmapped, rows };
  } finally {
    await rest.return(undefined);
  }
}
