import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_A11Y, CHART_STYLE, GRID_STROKE, tooltipCount, tooltipDate, tooltipWeek } from './chart-style';
import { formatCount, shortDate } from './format';
import type { ActivityPoint } from './types';

const COLOR = '#4f46e5';

/** `weekly`: each point is a week (dated by its Monday), as the 90-day and 1-year periods are drawn. */
export function ActivityChart({ points, weekly = false }: { points: ActivityPoint[]; weekly?: boolean }) {
  const total = points.reduce((sum, p) => sum + p.activity, 0);
  return (
    <AreaChart
      data={points}
      {...CHART_A11Y}
      responsive
      style={CHART_STYLE}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title={weekly ? 'Actividad General por semana' : 'Actividad General por día'}
      desc={`${formatCount(total)} acciones en el periodo`}
    >
      <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="date" tickFormatter={shortDate} tick={AXIS_TICK} minTickGap={24} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} width={44} domain={[0, 'auto']} />
      <Tooltip separator=": " labelFormatter={weekly ? tooltipWeek : tooltipDate} formatter={tooltipCount} />
      <Area type="monotone" dataKey="activity" name="Actividad" stroke={COLOR} strokeWidth={2} fill={COLOR} fillOpacity={0.15} />
    </AreaChart>
  );
}
