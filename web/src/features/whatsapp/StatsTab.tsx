import type { WhatsAppStats } from './api';

/** The Estadísticas tab: the month's traffic in figures and proportions. */
export function StatsTab({ stats, failed }: { stats: WhatsAppStats | null; failed: boolean }) {
  if (stats === null) {
    return failed ? <p className="alert-warning">No se pudieron cargar las estadísticas.</p> : <p className="muted" role="status">Cargando...</p>;
  }
  const total = stats.sent + stats.received;
  const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 1000) / 10);
  const rows = [
    { label: 'Enviados', value: stats.sent, percent: share(stats.sent) },
    { label: 'Recibidos', value: stats.received, percent: share(stats.received) },
  ];
  return (
    <div className="wa-stats">
      {failed && <p className="alert-warning">Estas cifras pueden no estar actualizadas.</p>}
      <dl className="wa-stats-figures">
        <div>
          <dt>Enviados</dt>
          <dd>{stats.sent.toLocaleString('es')}</dd>
        </div>
        <div>
          <dt>Recibidos</dt>
          <dd>{stats.received.toLocaleString('es')}</dd>
        </div>
        <div>
          <dt>Contactos activos (30 días)</dt>
          <dd>{stats.contacts.toLocaleString('es')}</dd>
        </div>
        <div>
          <dt>Respuestas automáticas enviadas</dt>
          <dd>{stats.autoReplies.toLocaleString('es')}</dd>
        </div>
      </dl>
      <div className="wa-bars" aria-label="Reparto de mensajes">
        {rows.map((row) => (
          <div key={row.label} className="wa-bar-row">
            <span>{row.label}</span>
            <div className="wa-bar">
              <div className="wa-bar-fill" style={{ width: `${row.percent}%` }} />
            </div>
            <span>{row.percent.toLocaleString('es')} %</span>
          </div>
        ))}
      </div>
    </div>
  );
}
