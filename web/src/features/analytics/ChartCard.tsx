import { Suspense, useId, type ReactNode } from 'react';
import { ChartTable, type ChartTableData } from './ChartTable';

interface ChartCardProps {
  title: string;
  /** Nothing to draw: says so instead of an empty frame. */
  empty: boolean;
  children: ReactNode;
  /** The same figures as a table (screen readers, exact values). */
  table?: ChartTableData;
}

export function ChartCard({ title, empty, children, table }: ChartCardProps) {
  const titleId = useId();
  return (
    <section className="card chart-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        {title}
      </h2>
      {empty ? (
        <p className="chart-empty muted">Sin datos en este periodo</p>
      ) : (
        <>
          <Suspense fallback={<div className="chart-placeholder" aria-hidden="true" />}>{children}</Suspense>
          {table && <ChartTable {...table} />}
        </>
      )}
    </section>
  );
}
