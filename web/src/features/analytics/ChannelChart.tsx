import { Pie, PieChart, Tooltip } from 'recharts';
import type { Channel } from './channels';
import { CHART_A11Y, tooltipCount } from './chart-style';
import { formatCount } from './format';

const DONUT_STYLE = { width: 200, height: 200 };

export function ChannelChart({ channels }: { channels: Channel[] }) {
  const summary = channels.map((c) => `${c.name}: ${formatCount(c.value)}`).join(', ');
  return (
    <div className="donut">
      <PieChart {...CHART_A11Y} responsive style={DONUT_STYLE} title="Distribución por Canal" desc={summary}>
        <Pie data={channels} dataKey="value" nameKey="name" innerRadius="58%" outerRadius="95%" paddingAngle={2} startAngle={90} endAngle={-270} />
        <Tooltip separator=": " formatter={tooltipCount} />
      </PieChart>
      <ul className="chart-legend">
        {channels.map((channel) => (
          <li key={channel.name}>
            <span className="legend-swatch" style={{ background: channel.fill }} aria-hidden="true" />
            <span className="legend-name">{channel.name}</span>
            <span className="legend-value">{formatCount(channel.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
