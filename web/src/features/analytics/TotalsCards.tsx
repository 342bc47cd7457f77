import { Icon } from '../../ui/Icon';
import { StatCard } from '../../ui/StatCard';
import type { AnalyticsData } from './types';

export function TotalsCards({ totals, stale = false }: { totals: AnalyticsData['totals']; stale?: boolean }) {
  return (
    <section className="stat-grid" aria-label="Totales del periodo">
      <StatCard label="Total Contactos" stale={stale} value={totals.totalContacts} icon={<Icon name="users" />} tone="blue" />
      <StatCard label="Eventos" stale={stale} value={totals.totalEvents} icon={<Icon name="calendar" />} tone="green" />
      <StatCard label="Correos" stale={stale} value={totals.totalEmails} icon={<Icon name="mail" />} tone="orange" />
      <StatCard label="Mensajes" stale={stale} value={totals.totalMessages} icon={<Icon name="message" />} tone="purple" />
    </section>
  );
}
