import { Suspense, useId, type ReactNode } from 'react';

interface ChartCardProps {
  title: string;
  /** Nothing to draw: says so instead of an empty frame. */
  empty: boolean;
  children: ReactNode;
}

export function ChartCard({ title, empty, children }: ChartCardProps) {
  const titleId = useId();
  return (
    <section className="card chart-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        {title}
      </h2>
      {empty ? (
        <p className="chart-empty muted">Sin datos en este periodo</p>
      ) : (
        <Suspense fallback={<div className="chart-placeholder" aria-hidden="true" />}>{children}</Suspense>
      )}
    </section>
  );
}
