import { useId } from 'react';
import { FigureList } from './FigureList';
import { formatPercent, openRate } from './format';
import type { EmailStats } from './types';

export function EmailStatsCard({ stats }: { stats: EmailStats }) {
  const titleId = useId();
  const rate = openRate(stats.opened, stats.sent);
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Estadísticas de Email
      </h2>
      <FigureList
        figures={[
          { label: 'Enviados', value: stats.sent },
          { label: 'Recibidos', value: stats.received },
          { label: 'Abiertos', value: stats.opened },
          { label: 'Clicks', value: stats.clicked },
        ]}
      />
      <div className="rate">
        <p className="rate-head">
          <span>Tasa de apertura</span>
          <strong className="rate-value">{formatPercent(rate)}</strong>
        </p>
        <div className="rate-track" aria-hidden="true">
          <div className="rate-fill" style={{ width: `${Math.min(rate, 100)}%` }} />
        </div>
      </div>
    </section>
  );
}
