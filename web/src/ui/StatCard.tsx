import type { ReactNode } from 'react';

interface StatCardProps {
  label: string;
  value: number | string | null;
  icon?: ReactNode;
  tone?: 'blue' | 'green' | 'purple' | 'orange';
  /** The figure is the last one known, not a current one (server unreachable or the last load failed). */
  stale?: boolean;
}

/** `null` means "no figure available": shown as a dash, never as an invented number. */
export function StatCard({ label, value, icon, tone = 'blue', stale = false }: StatCardProps) {
  const shown = value === null ? '—' : typeof value === 'number' ? value.toLocaleString('es') : value;
  return (
    <div className={stale ? 'card stat-card is-stale' : 'card stat-card'}>
      {icon && <div className={`stat-icon tone-${tone}`}>{icon}</div>}
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value">
          {shown}
          {stale && value !== null && <span className="stale-mark"> (sin actualizar)</span>}
        </p>
      </div>
    </div>
  );
}
