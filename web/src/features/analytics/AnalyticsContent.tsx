import { ChartCard } from './ChartCard';
import { channelsOf } from './channels';
import { EmailStatsCard } from './EmailStatsCard';
import { ActivityChart, ChannelChart, GrowthChart, ProductivityChart } from './lazy-charts';
import { TotalsCards } from './TotalsCards';
import type { AnalyticsData } from './types';
import { WhatsAppStatsCard } from './WhatsAppStatsCard';

export function AnalyticsContent({ data, busy }: { data: AnalyticsData; busy: boolean }) {
  const channels = channelsOf(data);
  return (
    <div className="analytics" aria-busy={busy}>
      <TotalsCards totals={data.totals} />
      <div className="analytics-grid">
        <ChartCard title="Actividad General" empty={data.activity.length === 0}>
          <ActivityChart points={data.activity} />
        </ChartCard>
        <ChartCard title="Crecimiento de Contactos" empty={data.growth.length === 0}>
          <GrowthChart points={data.growth} />
        </ChartCard>
        <ChartCard title="Distribución por Canal" empty={channels.every((c) => c.value === 0)}>
          <ChannelChart channels={channels} />
        </ChartCard>
        <EmailStatsCard stats={data.emails} />
        <WhatsAppStatsCard stats={data.whatsapp} />
        <ChartCard title="Productividad por Día" empty={data.productivity.length === 0}>
          <ProductivityChart points={data.productivity} />
        </ChartCard>
      </div>
    </div>
  );
}
