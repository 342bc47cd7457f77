import { getJsonIfAvailable } from '../../lib/http';

export interface Integration {
  name: string;
  description: string;
  href: string;
  /** Asks the integration's API; one that does not exist yet (404) counts as not connected. */
  check: () => Promise<boolean>;
}

interface Connected {
  connected?: boolean;
}

const connected = async (path: string) => (await getJsonIfAvailable<Connected>(path))?.connected === true;

// Mail answers a list of mailboxes, bare or wrapped.
async function anyMailboxConnected(): Promise<boolean> {
  const body = await getJsonIfAvailable<Connected[] | { integrations?: Connected[]; data?: Connected[] }>('emails/integrations');
  const list = Array.isArray(body) ? body : (body?.integrations ?? body?.data ?? []);
  return list.some((i) => i.connected === true);
}

export const INTEGRATIONS: readonly Integration[] = [
  { name: 'WhatsApp Business', description: 'Mensajes y respuestas automáticas', href: '/whatsapp', check: () => connected('whatsapp/status') },
  { name: 'Correo', description: 'Gmail, Outlook o IMAP/SMTP', href: '/emails', check: anyMailboxConnected },
  { name: 'Microsoft Teams', description: 'Equipos, canales y reuniones', href: '/teams', check: () => connected('teams/status') },
  {
    name: 'Google Calendar',
    description: 'Calendarios y reuniones de Google Meet',
    href: '/google-calendar',
    check: () => connected('google/google-calendar/status'),
  },
  {
    name: 'OpenAI',
    description: 'API key para el asistente IA',
    href: '/openai',
    check: async () => (await getJsonIfAvailable<{ exists?: boolean }>('ai/provider/openai/key'))?.exists === true,
  },
];
