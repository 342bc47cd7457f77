import { StatCard } from '../../ui/StatCard';
import { Icon } from '../../ui/Icon';
import type { WhatsAppStats } from './api';

/** The three cards of the spec: sent, received, active contacts. */
export function StatCards({ stats, failed }: { stats: WhatsAppStats | null; failed: boolean }) {
  return (
    <>
      {failed && stats === null && <p className="alert-warning">No se pudieron cargar las cifras de WhatsApp.</p>}
      <div className="stat-grid">
        <StatCard label="Mensajes enviados" value={stats?.sent ?? null} stale={failed} icon={<Icon name="message" />} tone="green" />
        <StatCard label="Mensajes recibidos" value={stats?.received ?? null} stale={failed} icon={<Icon name="mail" />} tone="blue" />
        <StatCard label="Contactos activos" value={stats?.contacts ?? null} stale={failed} icon={<Icon name="users" />} tone="purple" />
      </div>
    </>
  );
}
