import { getJsonIfAvailable } from '../../lib/http';

export interface IntegrationState {
  tone: 'connected' | 'disconnected' | 'missing';
  label: string;
}

export interface Integration {
  name: string;
  description: string;
  href: string;
  /** Asks the integration's API; one that does not exist yet (404) counts as not connected. */
  check: () => Promise<IntegrationState>;
  /** Shown when the check fails. */
  absent: IntegrationState;
  /**
   * For a connection the workspace shares, the call its screen sets it up with: a role the role table refuses
   * it may still look (the link says "Ver"), not manage. Absent: each member connects their own.
   */
  setUp?: { method: string; path: string };
}

interface Connected {
  connected?: boolean;
}

const CONNECTED: IntegrationState = { tone: 'connected', label: 'Conectado' };
const NOT_CONNECTED: IntegrationState = { tone: 'disconnected', label: 'No conectado' };
const KEY_MISSING: IntegrationState = { tone: 'missing', label: 'Faltante' };

const connection = (ok: boolean) => (ok ? CONNECTED : NOT_CONNECTED);

const connected = async (path: string) => connection((await getJsonIfAvailable<Connected>(path))?.connected === true);

// Mail answers a list of mailboxes, bare or wrapped.
async function anyMailboxConnected(): Promise<IntegrationState> {
  const body = await getJsonIfAvailable<Connected[] | { integrations?: Connected[]; data?: Connected[] }>('emails/integrations');
  const list = Array.isArray(body) ? body : (body?.integrations ?? body?.data ?? []);
  return connection(list.some((i) => i.connected === true));
}

async function openAiKey(): Promise<IntegrationState> {
  const status = await getJsonIfAvailable<{ exists?: boolean; last4?: string | null }>('ai/provider/openai/key');
  return status?.exists === true ? { tone: 'connected', label: `Cargada (••••${status.last4 ?? ''})` } : KEY_MISSING;
}

export const INTEGRATIONS: readonly Integration[] = [
  {
    name: 'WhatsApp Business',
    description: 'Mensajes y respuestas automáticas',
    href: '/whatsapp',
    check: () => connected('whatsapp/status'),
    absent: NOT_CONNECTED,
    setUp: { method: 'POST', path: '/whatsapp/connect' },
  },
  { name: 'Correo', description: 'Gmail, Outlook o IMAP/SMTP', href: '/emails', check: anyMailboxConnected, absent: NOT_CONNECTED },
  {
    name: 'Microsoft Teams',
    description: 'Equipos, canales y reuniones',
    href: '/teams',
    check: () => connected('teams/status'),
    absent: NOT_CONNECTED,
  },
  {
    name: 'Google Calendar',
    description: 'Calendarios y reuniones de Google Meet',
    href: '/google-calendar',
    check: () => connected('google/google-calendar/status'),
    absent: NOT_CONNECTED,
  },
  // The spec treats a key status that cannot be read as no key.
  {
    name: 'OpenAI',
    description: 'API key para el asistente IA',
    href: '/openai',
    check: openAiKey,
    absent: KEY_MISSING,
    setUp: { method: 'PUT', path: '/ai/provider/openai/key' },
  },
];
