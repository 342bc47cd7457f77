import { lazy, type ComponentType } from 'react';

export interface ProtectedRoute {
  path: string;
  Page: ComponentType;
  load: () => Promise<ComponentType>;
}

function route(path: string, load: () => Promise<ComponentType>): ProtectedRoute {
  return { path, load, Page: lazy(() => load().then((Page) => ({ default: Page }))) };
}

// Every protected screen is its own chunk: the first load only carries the shell and the auth forms.
export const PROTECTED_ROUTES: readonly ProtectedRoute[] = [
  route('/', () => import('../features/dashboard/DashboardPage').then((m) => m.DashboardPage)),
  route('/contacts', () => import('../features/contacts/ContactsPage').then((m) => m.ContactsPage)),
  route('/contacts/:id', () => import('../features/contacts/person/ContactPage').then((m) => m.ContactPage)),
  route('/calendar', () => import('../features/calendar/CalendarPage').then((m) => m.CalendarPage)),
  route('/whatsapp', () => import('../features/whatsapp/WhatsAppPage').then((m) => m.WhatsAppPage)),
  route('/conversations', () => import('../features/conversations/ConversationsPage').then((m) => m.ConversationsPage)),
  route('/emails', () => import('../features/emails/EmailsPage').then((m) => m.EmailsPage)),
  route('/teams', () => import('../features/teams/TeamsPage').then((m) => m.TeamsPage)),
  route('/openai', () => import('../features/openai/OpenAIPage').then((m) => m.OpenAIPage)),
  route('/google-calendar', () => import('../features/google-calendar/GoogleCalendarPage').then((m) => m.GoogleCalendarPage)),
  route('/analytics', () => import('../features/analytics/AnalyticsPage').then((m) => m.AnalyticsPage)),
  route('/settings', () => import('../features/settings/SettingsPage').then((m) => m.SettingsPage)),
];

/** The route of a location: exact paths, or one `:param` segment matching any single segment. */
export function findRoute(location: string): ProtectedRoute | undefined {
  const parts = location.split('/');
  return PROTECTED_ROUTES.find((r) => {
    if (r.path === location) return true;
    const pattern = r.path.split('/');
    return pattern.length === parts.length && pattern.every((p, i) => p === parts[i] || (p.startsWith(':') && parts[i] !== ''));
  });
}

/** Starts fetching a screen's chunk while the session check is still in flight. */
export function preloadScreen(path: string): void {
  findRoute(path)
    ?.load()
    .catch(() => undefined);
}
