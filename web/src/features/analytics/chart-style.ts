import type { CSSProperties } from 'react';
import { formatCount, longDate } from './format';

/** Kept in step with .chart-placeholder, so nothing jumps when the chart code arrives. */
export const CHART_STYLE: CSSProperties = { width: '100%', height: 260 };
export const AXIS_TICK = { fontSize: 12, fill: '#5b6475' };
export const GRID_STROKE = '#e2e6ef';

export const tooltipCount = (value: unknown) => formatCount(Number(value));
export const tooltipDate = (label: unknown) => longDate(String(label));
export const tooltipWeek = (label: unknown) => `Semana del ${longDate(String(label))}`;

/**
 * Charts are announced as images named by their title and summed up by their desc. Recharts' keyboard layer
 * is off: under Preact its camel-case `tabIndex` lands on the SVG verbatim, so the chart never takes focus and
 * role="application" would promise interaction that is not there.
 */
export const CHART_A11Y = { role: 'img', accessibilityLayer: false } as const;
