import { Icon } from '../../ui/Icon';
import { StatCard } from '../../ui/StatCard';
import type { ContactStats } from './types';

export function ContactStatsCards({ stats }: { stats: ContactStats | null }) {
  return (
    <section className="stat-grid" aria-label="Resumen de contactos">
      <StatCard label="Total Contactos" value={stats?.total ?? null} icon={<Icon name="users" />} tone="blue" />
      <StatCard label="Empresas" value={stats?.companies ?? null} icon={<Icon name="building" />} tone="green" />
      <StatCard label="Etiquetas" value={stats?.tags ?? null} icon={<Icon name="tag" />} tone="purple" />
      <StatCard label="Con Correo" value={stats?.withEmail ?? null} icon={<Icon name="mail" />} tone="orange" />
    </section>
  );
}
