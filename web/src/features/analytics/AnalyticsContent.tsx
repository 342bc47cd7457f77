import { ChartCard } from './ChartCard';
import { channelsOf } from './channels';
import { EmailStatsCard } from './EmailStatsCard';
import { longDate } from './format';
import { isWeekly, weeklyActivity, weeklyGrowth } from './buckets';
import { ActivityChart, ChannelChart, GrowthChart, ProductivityChart } from './lazy-charts';
import { TotalsCards } from './TotalsCards';
import type { AnalyticsData } from './types';
import { WhatsAppStatsCard } from './WhatsAppStatsCard';

export function AnalyticsContent({ data, busy, stale = false }: { data: AnalyticsData; busy: boolean; stale?: boolean }) {
  const channels = channelsOf(data);
  const weekly = isWeekly(data.period);
  const activity = weekly ? weeklyActivity(data.activity) : data.activity;
  const growth = weekly ? weeklyGrowth(data.growth) : data.growth;
  const dateColumn = weekly ? 'Semana del' : 'Fecha';
  return (
    <div className={stale ? 'analytics is-stale' : 'analytics'} aria-busy={busy}>
      <TotalsCards totals={data.totals} stale={stale} />
      <div className="analytics-grid">
        <ChartCard
          title="Actividad General"
          empty={activity.length === 0}
          table={{ caption: 'Actividad General', columns: [dateColumn, 'Actividad'], rows: activity.map((p) => [longDate(p.date), p.activity]) }}
        >
          <ActivityChart points={activity} weekly={weekly} />
        </ChartCard>
        <ChartCard
          title="Crecimiento de Contactos"
          empty={growth.length === 0}
          table={{ caption: 'Crecimiento de Contactos', columns: [dateColumn, 'Contactos'], rows: growth.map((p) => [longDate(p.date), p.contacts]) }}
        >
          <GrowthChart points={growth} weekly={weekly} />
        </ChartCard>
        <ChartCard
          title="Distribución por Canal"
          empty={channels.every((c) => c.value === 0)}
          table={{ caption: 'Distribución por Canal', columns: ['Canal', 'Total'], rows: channels.map((c) => [c.name, c.value]) }}
        >
          <ChannelChart channels={channels} />
        </ChartCard>
        <EmailStatsCard stats={data.emails} />
        <WhatsAppStatsCard stats={data.whatsapp} />
        <ChartCard
          title="Productividad por Día"
          empty={data.productivity.length === 0}
          table={{
            caption: 'Productividad por Día',
            columns: ['Día', 'Emails', 'Mensajes', 'Reuniones', 'Contactos'],
            rows: data.productivity.map((p) => [p.day, p.emails, p.messages, p.meetings, p.contacts]),
          }}
        >
          <ProductivityChart points={data.productivity} />
        </ChartCard>
      </div>
    </div>
  );
}
