import type { ReactNode } from 'react';

interface StatCardProps {
  label: string;
  value: number | string | null;
  icon?: ReactNode;
  tone?: 'blue' | 'green' | 'purple' | 'orange';
}

/** `null` means "no figure available": shown as a dash, never as an invented number. */
export function StatCard({ label, value, icon, tone = 'blue' }: StatCardProps) {
  const shown = value === null ? '—' : typeof value === 'number' ? value.toLocaleString('es') : value;
  return (
    <div className="card stat-card">
      {icon && <div className={`stat-icon tone-${tone}`}>{icon}</div>}
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value">{shown}</p>
      </div>
    </div>
  );
}
