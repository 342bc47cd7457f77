import type { CreatedPersonalToken, CreatePersonalTokenBody, PersonalToken, PersonalTokenList, PersonalTokenScope } from '@asistente/contracts';
import { getJson, sendDelete, sendJson } from '../../lib/http';

export const fetchPersonalTokens = async (): Promise<PersonalToken[]> => (await getJson<PersonalTokenList>('auth/tokens')).data;

export const createPersonalToken = (body: CreatePersonalTokenBody) => sendJson<CreatedPersonalToken>('post', 'auth/tokens', body);

export const revokePersonalToken = (id: string) => sendDelete(`auth/tokens/${encodeURIComponent(id)}`);

/** Every scope in the owner's words: a scope added to the contracts fails to compile until it has them. */
export const SCOPE_LABELS: Record<PersonalTokenScope, string> = {
  'contacts:read': 'Ver contactos',
  'contacts:write': 'Crear, editar y borrar contactos',
  'whatsapp:read': 'Leer chats y mensajes',
  'whatsapp:send': 'Enviar mensajes',
  'conversations:read': 'Ver conversaciones, notas y asignaciones',
  'conversations:write': 'Responder, asignar, resolver y añadir notas',
  'emails:read': 'Leer correos',
  'emails:send': 'Enviar correos',
  'calendar:read': 'Ver eventos',
  'calendar:write': 'Crear, cambiar y borrar eventos',
  'teams:read': 'Ver equipos, canales y reuniones',
  'analytics:read': 'Ver la analítica',
};

/** The create form's checkboxes, one group per area. */
export const SCOPE_GROUPS: { area: string; scopes: PersonalTokenScope[] }[] = [
  { area: 'Contactos', scopes: ['contacts:read', 'contacts:write'] },
  { area: 'WhatsApp', scopes: ['whatsapp:read', 'whatsapp:send'] },
  { area: 'Conversaciones', scopes: ['conversations:read', 'conversations:write'] },
  { area: 'Correo', scopes: ['emails:read', 'emails:send'] },
  { area: 'Calendario', scopes: ['calendar:read', 'calendar:write'] },
  { area: 'Teams', scopes: ['teams:read'] },
  { area: 'Analítica', scopes: ['analytics:read'] },
];

/** The expiry select: days, or '' for none. */
export const EXPIRY_OPTIONS: { value: '' | '30' | '90' | '365'; label: string }[] = [
  { value: '30', label: '30 días' },
  { value: '90', label: '90 días' },
  { value: '365', label: '365 días' },
  { value: '', label: 'Sin caducidad' },
];

const DATE = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

export const formatCreated = (token: PersonalToken) => `Creado el ${DATE.format(new Date(token.createdAt))}`;

export const formatLastUse = (token: PersonalToken) => (token.lastUsedAt ? `Último uso: ${DATE_TIME.format(new Date(token.lastUsedAt))}` : 'Nunca usado');

export function formatExpiry(token: PersonalToken, now = Date.now()): string {
  if (!token.expiresAt) return 'Sin caducidad';
  const at = new Date(token.expiresAt);
  return at.getTime() <= now ? `Caducó el ${DATE.format(at)}` : `Caduca el ${DATE.format(at)}`;
}
