import { ColumnHeads } from './ColumnHeads';

export interface ChartTableData {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

const count = new Intl.NumberFormat('es-ES');

/** The chart's figures as a table, one click away for everyone and the way screen readers read a chart. */
export function ChartTable({ caption, columns, rows }: ChartTableData) {
  return (
    <details className="chart-table">
      <summary>Ver datos en tabla</summary>
      {/* Focusable so a keyboard can scroll it (a long year of weeks scrolls inside its box). */}
      <div className="table-wrap" tabIndex={0} role="region" aria-label={`${caption}: tabla`}>
        <table className="table">
          <caption className="sr-only">{caption}</caption>
          <ColumnHeads columns={columns} />
          <tbody>
            {rows.map((row) => (
              <tr key={String(row[0])}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={i}>{typeof cell === 'number' ? count.format(cell) : cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
