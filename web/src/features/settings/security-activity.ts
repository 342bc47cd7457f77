import type { SecurityActivityDetail, SecurityActivityPage, SecurityActivityType, SecurityProvider } from '@asistente/contracts';
import { getJson } from '../../lib/http';

export const ACTIVITY_PAGE_SIZE = 10;

export function fetchSecurityActivity(page: number): Promise<SecurityActivityPage> {
  return getJson<SecurityActivityPage>('account/activity', { searchParams: { page, limit: ACTIVITY_PAGE_SIZE } });
}

const CONNECTED: Record<SecurityProvider, string> = {
  google: 'Google Calendar conectado',
  microsoft: 'Microsoft Teams conectado',
  email: 'Cuenta de correo conectada',
  whatsapp: 'WhatsApp vinculado',
  caldav: 'Calendario CalDAV conectado',
};
const DISCONNECTED: Record<SecurityProvider, string> = {
  google: 'Google Calendar desconectado',
  microsoft: 'Microsoft Teams desconectado',
  email: 'Cuenta de correo desconectada',
  whatsapp: 'WhatsApp desvinculado',
  caldav: 'Calendario CalDAV desconectado',
};

/** The tokens a new password revoked, when there were any. */
function revokedTokens({ revokedTokens: count }: SecurityActivityDetail): string {
  if (!count) return '';
  return count === 1 ? '; se revocó 1 token de acceso' : `; se revocaron ${count} tokens de acceso`;
}

/** Every kind the log records has its words here: a new kind in the contracts fails to compile until it has them. */
const DESCRIBE: Record<SecurityActivityType, (detail: SecurityActivityDetail) => string> = {
  'login.succeeded': () => 'Inicio de sesión',
  'login.failed': () => 'Intento de inicio de sesión fallido',
  logout: () => 'Cierre de sesión',
  'password.changed': (d) => `Contraseña cambiada${revokedTokens(d)}`,
  'password.reset': (d) => `Contraseña restablecida con un enlace por correo${revokedTokens(d)}`,
  'provider.connected': (d) => (d.provider ? CONNECTED[d.provider] : 'Integración conectada'),
  'provider.disconnected': (d) => (d.provider ? DISCONNECTED[d.provider] : 'Integración desconectada'),
  'openai_key.saved': () => 'Clave de OpenAI guardada',
  'openai_key.removed': () => 'Clave de OpenAI eliminada',
  'export.requested': () => 'Descarga de tus datos solicitada',
  'token.created': (d) => (d.tokenName ? `Token de acceso creado: «${d.tokenName}»` : 'Token de acceso creado'),
  'token.revoked': (d) => (d.tokenName ? `Token de acceso revocado: «${d.tokenName}»` : 'Token de acceso revocado'),
};

export function describeActivity(type: SecurityActivityType, detail: SecurityActivityDetail): string {
  const words = DESCRIBE[type](detail);
  return detail.account ? `${words} (${detail.account})` : words;
}

const AT = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

export const formatActivityAt = (iso: string) => AT.format(new Date(iso));
