import { useState } from 'react';
import { saveBlob } from '../../lib/download';
import { useLiveData } from '../../lib/live-data';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { LoadFailed, StaleNotice } from '../../ui/StaleNotice';
import { AnalyticsContent } from './AnalyticsContent';
import { loadAnalytics } from './api';
import { PeriodSelect } from './PeriodSelect';
import { reportCsv, reportTables } from './report';
import { DEFAULT_PERIOD, type AnalyticsData, type AnalyticsPeriod } from './types';
import './analytics.css';

/** The figures on screen, downloaded as `analytics-<period>-<date>.csv`. */
function exportReport(data: AnalyticsData): void {
  const today = new Date().toISOString().slice(0, 10);
  saveBlob(new Blob([reportCsv(reportTables(data))], { type: 'text/csv;charset=utf-8' }), `analytics-${data.period}-${today}.csv`);
}

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
            <Button variant="secondary" disabled={!data} onClick={() => data && exportReport(data)}>
              <Icon name="download" size={18} />
              Exportar CSV
            </Button>
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
