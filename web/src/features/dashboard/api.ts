import type { AnalyticsDashboard, Contact, RecentActivity } from '@asistente/contracts';
import { ApiError } from '../../lib/errors';
import { getJson, getJsonIfAvailable } from '../../lib/http';
import { userTimeZone } from '../../lib/time-zone';

export type RecentContact = Pick<Contact, 'id' | 'firstName' | 'lastName' | 'createdAt' | 'updatedAt'>;
export type ActivityEvent = RecentActivity['items'][number];

/**
 * Each loader answers null when its figure is not available (service not there yet, or failing). Without an
 * answer from the server at all it throws instead, so the dashboard keeps the figures it had, marked stale.
 */
async function orNull<T>(what: string, load: () => Promise<T | null>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    console.error(`No se pudo cargar ${what}`, err);
    if (err instanceof ApiError && err.status === 0) throw err;
    return null;
  }
}

export const getDashboardTotals = () =>
  orNull('las métricas', () =>
    getJsonIfAvailable<AnalyticsDashboard>('analytics/dashboard', { searchParams: { period: '30d', tz: userTimeZone() } }),
  );

export const getContactTotal = () =>
  orNull('el total de contactos', async () => (await getJson<{ total: number }>('contacts/stats')).total);

export const getRecentEvents = () =>
  orNull('la actividad reciente', async () => {
    const recent = await getJsonIfAvailable<RecentActivity>('analytics/recent', { searchParams: { limit: 8 } });
    return recent?.items ?? null;
  });

export const getRecentContacts = () =>
  orNull('los contactos recientes', async () => {
    const { contacts } = await getJson<{ contacts: RecentContact[] }>('contacts', { searchParams: { page: 1, limit: 10 } });
    return contacts;
  });
