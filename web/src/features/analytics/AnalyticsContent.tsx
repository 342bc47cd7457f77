import { ChartCard } from './ChartCard';
import { EmailStatsCard } from './EmailStatsCard';
import { ActivityChart, ChannelChart, GrowthChart, ProductivityChart, TeamChart } from './lazy-charts';
import { chartTables } from './report';
import { memberRows } from './team';
import { TeamCard } from './TeamCard';
import { TotalsCards } from './TotalsCards';
import type { AnalyticsData } from './types';
import { WhatsAppStatsCard } from './WhatsAppStatsCard';

export function AnalyticsContent({ data, busy, stale = false }: { data: AnalyticsData; busy: boolean; stale?: boolean }) {
  const { weekly, activity, growth, channels, productivity } = chartTables(data);
  const handled = memberRows(data).map((r) => ({ name: r.name, handled: r.handled }));
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
      {/* Its own row: the table's four columns need more than half the width. */}
      <div className="analytics-grid team-grid">
        <TeamCard data={data} />
        {/* The Equipo table beside it holds the same counts: no second table under the chart. */}
        <ChartCard
          title="Conversaciones atendidas por miembro"
          empty={handled.every((p) => p.handled === 0)}
        >
          <TeamChart points={handled} />
        </ChartCard>
      </div>
    </div>
  );
}
