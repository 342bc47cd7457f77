import { lazy } from 'react';

// Recharts is most of this screen's weight: the page, its figures and its requests start without waiting for it.
const charts = () => import('./charts');

export const ActivityChart = lazy(() => charts().then((m) => ({ default: m.ActivityChart })));
export const ChannelChart = lazy(() => charts().then((m) => ({ default: m.ChannelChart })));
export const GrowthChart = lazy(() => charts().then((m) => ({ default: m.GrowthChart })));
export const ProductivityChart = lazy(() => charts().then((m) => ({ default: m.ProductivityChart })));
export const TeamChart = lazy(() => charts().then((m) => ({ default: m.TeamChart })));
