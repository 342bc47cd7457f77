import { AnalyticsDashboard, analyticsQuery, EmailStats, WhatsappStats } from '../analytics.js';
import { route } from './route.js';

/** One query schema for the figures below (the route registers this same object). */
const ThirtyDays = analyticsQuery('30d');

/** The analytics service's routes other services call. */
export const analyticsRoutes = {
  dashboard: route({ service: 'analytics', method: 'GET', path: '/analytics/dashboard', query: ThirtyDays, response: AnalyticsDashboard }),
  emails: route({ service: 'analytics', method: 'GET', path: '/analytics/emails', query: ThirtyDays, response: EmailStats }),
  whatsapp: route({ service: 'analytics', method: 'GET', path: '/analytics/whatsapp', query: ThirtyDays, response: WhatsappStats }),
};
