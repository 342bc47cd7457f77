import { Icon } from '../../ui/Icon';
import { StatCard } from '../../ui/StatCard';
import type { AnalyticsData } from './types';

export function TotalsCards({ totals }: { totals: AnalyticsData['totals'] }) {
  return (
    <section className="stat-grid" aria-label="Totales del periodo">
      <StatCard label="Total Contactos" value={totals.totalContacts} icon={<Icon name="users" />} tone="blue" />
      <StatCard label="Eventos" value={totals.totalEvents} icon={<Icon name="calendar" />} tone="green" />
      <StatCard label="Correos" value={totals.totalEmails} icon={<Icon name="mail" />} tone="orange" />
      <StatCard label="Mensajes" value={totals.totalMessages} icon={<Icon name="message" />} tone="purple" />
    </section>
  );
}
