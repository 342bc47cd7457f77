import type { IconName } from '../ui/Icon';

export interface NavItem {
  label: string;
  path: string;
  icon: IconName;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', path: '/', icon: 'home' },
  { label: 'Contactos', path: '/contacts', icon: 'users' },
  { label: 'Calendario', path: '/calendar', icon: 'calendar' },
  { label: 'WhatsApp', path: '/whatsapp', icon: 'message' },
  // The team's shared inbox, beside the channel that feeds it (the spec's WhatsApp screen stays as it is).
  { label: 'Conversaciones', path: '/conversations', icon: 'inbox' },
  { label: 'Correos', path: '/emails', icon: 'mail' },
  { label: 'Teams', path: '/teams', icon: 'video' },
  { label: 'OpenAI', path: '/openai', icon: 'key' },
  { label: 'Google Calendar', path: '/google-calendar', icon: 'check' },
  { label: 'Analytics', path: '/analytics', icon: 'chart' },
  { label: 'Configuración', path: '/settings', icon: 'settings' },
];

export function isActive(item: NavItem, location: string): boolean {
  return item.path === '/' ? location === '/' : location === item.path || location.startsWith(`${item.path}/`);
}
