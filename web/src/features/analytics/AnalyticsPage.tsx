import { useState } from 'react';
import { useLiveData } from '../../lib/live-data';
import { PageHeader } from '../../ui/PageHeader';
import { LoadFailed, StaleNotice } from '../../ui/StaleNotice';
import { AnalyticsContent } from './AnalyticsContent';
import { loadAnalytics } from './api';
import { PeriodSelect } from './PeriodSelect';
import { DEFAULT_PERIOD, type AnalyticsPeriod } from './types';

export function AnalyticsPage() {
  const [period, setPeriod] = useState<AnalyticsPeriod>(DEFAULT_PERIOD);
  const { data, loading, stale, failed, updatedAt, reload } = useLiveData(loadAnalytics, period);

  return (
    <>
      <PageHeader
        title="Analytics"
        subtitle="Análisis detallado de tu actividad empresarial"
        actions={
          <>
            {/* Figures of the previous period stay visible while the new ones load. */}
            {data && loading && (
              <p className="analytics-loading muted" role="status">
                Cargando analytics...
              </p>
            )}
            <PeriodSelect value={period} onChange={setPeriod} />
          </>
        }
      />
      {stale && <StaleNotice updatedAt={updatedAt} onRetry={reload} />}
      {data ? (
        <AnalyticsContent data={data} busy={loading} stale={stale} />
      ) : failed ? (
        <LoadFailed what="los datos de analytics" onRetry={reload} />
      ) : (
        <p className="page-loading" role="status">
          Cargando analytics...
        </p>
      )}
    </>
  );
}
