import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, CHART_A11Y, CHART_STYLE, GRID_STROKE, tooltipCount } from './chart-style';
import type { ProductivityPoint } from './types';

// Recharts paints legend text in the series colour, too faint to read for some; the swatch carries the colour.
const legendText = (name: unknown) => <span className="legend-text">{String(name)}</span>;

const SERIES: readonly { key: keyof Omit<ProductivityPoint, 'day'>; name: string; color: string }[] = [
  { key: 'emails', name: 'Emails', color: '#4f46e5' },
  { key: 'messages', name: 'Mensajes', color: '#16a34a' },
  { key: 'meetings', name: 'Reuniones', color: '#ea580c' },
  { key: 'contacts', name: 'Contactos', color: '#9333ea' },
];

export function ProductivityChart({ points }: { points: ProductivityPoint[] }) {
  return (
    <BarChart
      data={points}
      {...CHART_A11Y}
      responsive
      style={CHART_STYLE}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title="Productividad por Día de la semana"
      desc="Emails, mensajes, reuniones y contactos por día de la semana"
    >
      <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="day" tick={AXIS_TICK} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} width={44} domain={[0, 'auto']} />
      <Tooltip separator=": " formatter={tooltipCount} />
      <Legend itemSorter={null} formatter={legendText} />
      {SERIES.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} radius={[3, 3, 0, 0]} />
      ))}
    </BarChart>
  );
}
