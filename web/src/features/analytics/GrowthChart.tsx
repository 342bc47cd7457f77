import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_A11Y, CHART_STYLE, GRID_STROKE, tooltipCount, tooltipDate, tooltipWeek } from './chart-style';
import { formatCount, shortDate } from './format';
import type { ContactsGrowthPoint } from './types';

/** `weekly`: each point is a week's closing total (dated by its Monday). The axis starts at 0: it is a count. */
export function GrowthChart({ points, weekly = false }: { points: ContactsGrowthPoint[]; weekly?: boolean }) {
  const last = points.at(-1)?.contacts ?? 0;
  return (
    <LineChart
      data={points}
      {...CHART_A11Y}
      responsive
      style={CHART_STYLE}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title={weekly ? 'Crecimiento de Contactos por semana' : 'Crecimiento de Contactos por día'}
      desc={`${formatCount(last)} contactos al final del periodo`}
    >
      <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="date" tickFormatter={shortDate} tick={AXIS_TICK} minTickGap={24} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} width={44} domain={[0, 'auto']} />
      <Tooltip separator=": " labelFormatter={weekly ? tooltipWeek : tooltipDate} formatter={tooltipCount} />
      <Line type="monotone" dataKey="contacts" name="Contactos" stroke="#0891b2" strokeWidth={2} dot={false} />
    </LineChart>
  );
}
