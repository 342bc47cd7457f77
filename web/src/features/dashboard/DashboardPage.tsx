import { useSession } from '../../lib/session-state';
import { Icon } from '../../ui/Icon';
import { PageHeader } from '../../ui/PageHeader';
import { StaleNotice } from '../../ui/StaleNotice';
import { StatCard } from '../../ui/StatCard';
import { QuickActions } from './QuickActions';
import { RecentActivity } from './RecentActivity';
import { stepsFor } from './setup';
import { usePermissions } from '../../lib/workspace-roles';
import { SetupChecklist } from './SetupChecklist';
import { useDashboard } from './use-dashboard';
import { useSetupStatus } from './use-setup-status';
import './dashboard.css';

const NEW_ACCOUNT_MS = 7 * 24 * 3600 * 1000;

/** Said to the person by their first name, in words that fit whoever reads them; no name, no comma. */
function greeting(firstName: string, firstRun: boolean): string {
  if (firstRun) return firstName ? `Te damos la bienvenida, ${firstName}` : 'Te damos la bienvenida';
  return firstName ? `Hola, ${firstName}` : 'Hola';
}

export function DashboardPage() {
  const { user } = useSession();
  const { data, stale, updatedAt, reload } = useDashboard();
  const setup = useSetupStatus();
  const totals = data?.totals ?? null;
  // The steps this session's role can take: an agent is not asked to connect the workspace's WhatsApp.
  const steps = usePermissions(stepsFor);
  const done = setup && steps ? steps.filter((s) => setup[s.step]).length : null;
  // A new account with nothing set up yet is welcomed, not "back" (decided from the account's age first, so the
  // greeting does not flip while the status loads).
  const newAccount = user ? Date.now() - Date.parse(user.createdAt) < NEW_ACCOUNT_MS : false;
  const firstRun = newAccount && (done === null || done === 0);
  const firstName = user?.firstName.trim() ?? '';

  return (
    <>
      <PageHeader title="Dashboard" subtitle={greeting(firstName, firstRun)} />
      {firstRun && (
        <p className="first-run-intro">
          Empieza conectando tus canales: cada paso de la lista se marca solo cuando queda listo.
        </p>
      )}
      {setup && steps && done !== null && done < steps.length && <SetupChecklist status={setup} steps={steps} />}
      {stale && <StaleNotice updatedAt={updatedAt} onRetry={reload} />}
      <section className="stat-grid" aria-label="Resumen">
        <StatCard label="Contactos" stale={stale} value={data?.contactTotal ?? totals?.totalContacts ?? null} icon={<Icon name="users" />} tone="blue" />
        <StatCard label="Eventos (30 días)" stale={stale} value={totals?.totalEvents ?? null} icon={<Icon name="calendar" />} tone="green" />
        <StatCard label="Mensajes (30 días)" stale={stale} value={totals?.totalMessages ?? null} icon={<Icon name="message" />} tone="purple" />
        <StatCard label="Correos (30 días)" stale={stale} value={totals?.totalEmails ?? null} icon={<Icon name="mail" />} tone="orange" />
      </section>
      <div className="dashboard-grid">
        <RecentActivity items={data?.activity ?? null} />
        <QuickActions status={setup} />
      </div>
    </>
  );
}
