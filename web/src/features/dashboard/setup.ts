import { roleAllows, type WorkspaceRole } from '@asistente/contracts';
import { getJson } from '../../lib/http';

export type SetupStep = 'whatsapp' | 'mail' | 'calendar' | 'teams' | 'openai' | 'contacts';

/** What the account has set up; each answer comes from its own service's status endpoint. */
export type SetupStatus = Record<SetupStep, boolean>;

/**
 * A first step, and the call that takes it when only some roles may (the workspace's connections): a step the
 * session's role cannot take is not offered (the role table of the contracts decides).
 */
export interface SetupStepView {
  step: SetupStep;
  label: string;
  href: string;
  doneLabel: string;
  takenBy?: { method: string; path: string };
}

export const SETUP_STEPS: readonly SetupStepView[] = [
  { step: 'whatsapp', label: 'Conecta WhatsApp', href: '/whatsapp', doneLabel: 'WhatsApp conectado', takenBy: { method: 'POST', path: '/whatsapp/connect' } },
  { step: 'mail', label: 'Conecta tu correo', href: '/emails', doneLabel: 'Correo conectado' },
  // Any calendar will do (Google, Outlook through Teams, CalDAV): Calendario offers all three.
  { step: 'calendar', label: 'Conecta un calendario', href: '/calendar', doneLabel: 'Calendario conectado' },
  { step: 'teams', label: 'Conecta Microsoft Teams', href: '/teams', doneLabel: 'Microsoft Teams conectado' },
  {
    step: 'openai',
    label: 'Guarda tu API key de OpenAI',
    href: '/openai',
    doneLabel: 'API key de OpenAI guardada',
    takenBy: { method: 'PUT', path: '/ai/provider/openai/key' },
  },
  { step: 'contacts', label: 'Importa tus contactos', href: '/contacts', doneLabel: 'Contactos importados' },
];

/** The steps `role` can take. */
export function stepsFor(role: WorkspaceRole): readonly SetupStepView[] {
  return SETUP_STEPS.filter((s) => !s.takenBy || roleAllows(role, s.takenBy.method, s.takenBy.path));
}

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
  const [whatsapp, mail, calendar, teams, openai, contacts] = await Promise.all([
    check('whatsapp/status', connected),
    check('emails/integrations', anyMailConnected),
    // The calendar service's own answer: true with any provider connected.
    check('events/providers', connected),
    check('teams/status', connected),
    check('ai/provider/openai/key', (body) => isObject(body) && body.exists === true),
    check('contacts/stats', (body) => isObject(body) && Number(body.total) > 0),
  ]);
  return { whatsapp, mail, calendar, teams, openai, contacts };
}
