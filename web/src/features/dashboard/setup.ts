import { getJson } from '../../lib/http';

export type SetupStep = 'whatsapp' | 'mail' | 'google' | 'teams' | 'openai' | 'contacts';

/** What the account has set up; each answer comes from its own service's status endpoint. */
export type SetupStatus = Record<SetupStep, boolean>;

export const SETUP_STEPS: readonly { step: SetupStep; label: string; href: string; doneLabel: string }[] = [
  { step: 'whatsapp', label: 'Conecta WhatsApp', href: '/whatsapp', doneLabel: 'WhatsApp conectado' },
  { step: 'mail', label: 'Conecta tu correo', href: '/emails', doneLabel: 'Correo conectado' },
  { step: 'google', label: 'Conecta Google Calendar', href: '/google-calendar', doneLabel: 'Google Calendar conectado' },
  { step: 'teams', label: 'Conecta Microsoft Teams', href: '/teams', doneLabel: 'Microsoft Teams conectado' },
  { step: 'openai', label: 'Guarda tu API key de OpenAI', href: '/openai', doneLabel: 'API key de OpenAI guardada' },
  { step: 'contacts', label: 'Importa tus contactos', href: '/contacts', doneLabel: 'Contactos importados' },
];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const connected = (value: unknown) => isObject(value) && value.connected === true;

/** A service that fails, is missing or answers something unexpected counts as "not connected". */
async function check(path: string, read: (body: unknown) => boolean): Promise<boolean> {
  try {
    return read(await getJson<unknown>(path));
  } catch {
    return false;
  }
}

function anyMailConnected(body: unknown): boolean {
  const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.integrations) ? body.integrations : [];
  return list.some(connected);
}

export async function loadSetupStatus(): Promise<SetupStatus> {
  const [whatsapp, mail, google, teams, openai, contacts] = await Promise.all([
    check('whatsapp/status', connected),
    check('emails/integrations', anyMailConnected),
    check('google/google-calendar/status', connected),
    check('teams/status', connected),
    check('ai/provider/openai/key', (body) => isObject(body) && body.exists === true),
    check('contacts/stats', (body) => isObject(body) && Number(body.total) > 0),
  ]);
  return { whatsapp, mail, google, teams, openai, contacts };
}
