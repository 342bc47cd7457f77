import { RETENTION_DAY_CHOICES, type RetentionPreview, type RetentionSettings } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export const fetchRetention = () => getJson<RetentionSettings>('account/retention');
export const saveRetention = (settings: RetentionSettings) => sendJson<RetentionSettings>('put', 'account/retention', settings);

export type RetentionKey = 'whatsappDays' | 'emailBodyDays' | 'aiRunDays';

const COUNT = new Intl.NumberFormat('es-ES');
const counted = (one: string, many: string) => (n: number) => `${COUNT.format(n)} ${n === 1 ? one : many}`;

/**
 * The three kinds of data, in the card's order, with the words the owner reads: `service` answers how much a
 * shorter period would erase, `what` names that amount.
 */
export const RETENTION_FIELDS: { key: RetentionKey; label: string; hint: string; service: string; what: (n: number) => string }[] = [
  {
    key: 'whatsappDays',
    label: 'Mensajes de WhatsApp',
    hint: 'Las conversaciones siguen en la lista; se borran sus mensajes antiguos.',
    service: 'whatsapp',
    what: counted('mensaje de WhatsApp', 'mensajes de WhatsApp'),
  },
  {
    key: 'emailBodyDays',
    label: 'Contenido de los correos',
    hint: 'Se conservan remitente, asunto y fecha; el texto y los adjuntos guardados se borran.',
    service: 'emails',
    what: counted('correo (su texto y adjuntos)', 'correos (su texto y adjuntos)'),
  },
  {
    key: 'aiRunDays',
    label: 'Ejecuciones del asistente IA',
    hint: 'El registro de cada respuesta del asistente y su coste.',
    service: 'ai',
    what: counted('ejecución del asistente', 'ejecuciones del asistente'),
  },
];

/** How many rows of a kind a retention of `days` would erase now. */
export const fetchRetentionPreview = (service: string, days: number) =>
  getJson<RetentionPreview>(`${service}/retention/preview`, { searchParams: { days } }).then((preview) => preview.count);

/** The new period keeps less than the saved one: what lies between is erased by the next daily run. */
export const isShorter = (saved: number | null, chosen: number | null): chosen is number => chosen !== null && (saved === null || chosen < saved);

/** The select's options: forever, the usual choices, and a saved value that is none of them (set from the API). */
export function retentionOptions(current: number | null): { value: string; label: string }[] {
  const days = [...RETENTION_DAY_CHOICES] as number[];
  if (current !== null && !days.includes(current)) days.push(current);
  return [{ value: '', label: 'Para siempre' }, ...days.sort((a, b) => a - b).map((d) => ({ value: String(d), label: d === 1 ? '1 día' : `${d} días` }))];
}

export const toDays = (value: string): number | null => (value === '' ? null : Number(value));
