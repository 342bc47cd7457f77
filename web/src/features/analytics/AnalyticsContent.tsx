import { ChartCard } from './ChartCard';
import { EmailStatsCard } from './EmailStatsCard';
import { ActivityChart, ChannelChart, GrowthChart, ProductivityChart } from './lazy-charts';
import { chartTables } from './report';
import { TotalsCards } from './TotalsCards';
import type { AnalyticsData } from './types';
import { WhatsAppStatsCard } from './WhatsAppStatsCard';

export function AnalyticsContent({ data, busy, stale = false }: { data: AnalyticsData; busy: boolean; stale?: boolean }) {
  const { weekly, activity, growth, channels, productivity } = chartTables(data);
  return (
    <div className={stale ? 'analytics is-stale' : 'analytics'} aria-busy={busy}>
      <TotalsCards totals={data.totals} stale={stale} />
      <div className="analytics-grid">
        <ChartCard
          title="Actividad General"
          empty={activity.points.length === 0}
          table={activity.table}
        >
          <ActivityChart points={activity.points} weekly={weekly} />
        </ChartCard>
        <ChartCard
          title="Crecimiento de Contactos"
          empty={growth.points.length === 0}
          table={growth.table}
        >
          <GrowthChart points={growth.points} weekly={weekly} />
        </ChartCard>
        <ChartCard
          title="Distribución por Canal"
          empty={channels.points.every((c) => c.value === 0)}
          table={channels.table}
        >
          <ChannelChart channels={channels.points} />
        </ChartCard>
        <EmailStatsCard stats={data.emails} />
        <WhatsAppStatsCard stats={data.whatsapp} />
        <ChartCard
          title="Productividad por Día"
          empty={data.productivity.length === 0}
          table={productivity}
        >
          <ProductivityChart points={data.productivity} />
        </ChartCard>
      </div>
    </div>
  );
}
