import { useSession } from '../../lib/session-state';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { StatCard } from '../../ui/StatCard';
import { QuickActions } from './QuickActions';
import { RecentActivity } from './RecentActivity';
import { useDashboard } from './use-dashboard';

export function DashboardPage() {
  const { user } = useSession();
  const data = useDashboard();
  const totals = data?.totals ?? null;

  return (
    <>
      <PageHeader title="Dashboard" subtitle={`Bienvenido de nuevo, ${user?.email ?? ''}`} />
      <section className="stat-grid" aria-label="Resumen">
        <StatCard label="Contactos" value={data?.contactTotal ?? totals?.totalContacts ?? null} icon={<Icon name="users" />} tone="blue" />
        <StatCard label="Eventos (30 días)" value={totals?.totalEvents ?? null} icon={<Icon name="calendar" />} tone="green" />
        <StatCard label="Mensajes (30 días)" value={totals?.totalMessages ?? null} icon={<Icon name="message" />} tone="purple" />
        <StatCard label="Correos (30 días)" value={totals?.totalEmails ?? null} icon={<Icon name="mail" />} tone="orange" />
      </section>
      <div className="dashboard-grid">
        <RecentActivity items={data?.activity ?? null} />
        <QuickActions />
      </div>
    </>
  );
}
