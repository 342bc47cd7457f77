import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_A11Y, CHART_STYLE, GRID_STROKE, tooltipCount } from './chart-style';
import { formatCount } from './format';

export interface HandledPoint {
  name: string;
  handled: number;
}

/** Conversations each member answered in the period, one bar each (as the productivity chart draws its days). */
export function TeamChart({ points }: { points: HandledPoint[] }) {
  const summary = points.map((p) => `${p.name}: ${formatCount(p.handled)}`).join(', ');
  return (
    <BarChart
      data={points}
      {...CHART_A11Y}
      responsive
      style={CHART_STYLE}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title="Conversaciones atendidas por miembro"
      desc={summary}
    >
      <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="name" tick={AXIS_TICK} interval={0} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} width={44} domain={[0, 'auto']} />
      <Tooltip separator=": " formatter={tooltipCount} />
      <Bar dataKey="handled" name="Conversaciones atendidas" fill="#0891b2" radius={[3, 3, 0, 0]} />
    </BarChart>
  );
}
