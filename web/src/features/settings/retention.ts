import { RETENTION_DAY_CHOICES, type RetentionSettings } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export const fetchRetention = () => getJson<RetentionSettings>('account/retention');
export const saveRetention = (settings: RetentionSettings) => sendJson<RetentionSettings>('put', 'account/retention', settings);

export type RetentionKey = 'whatsappDays' | 'emailBodyDays' | 'aiRunDays';

/** The three kinds of data, in the card's order, with the words the owner reads. */
export const RETENTION_FIELDS: { key: RetentionKey; label: string; hint: string }[] = [
  { key: 'whatsappDays', label: 'Mensajes de WhatsApp', hint: 'Las conversaciones siguen en la lista; se borran sus mensajes antiguos.' },
  { key: 'emailBodyDays', label: 'Contenido de los correos', hint: 'Se conservan remitente, asunto y fecha; el texto y los adjuntos guardados se borran.' },
  { key: 'aiRunDays', label: 'Ejecuciones del asistente IA', hint: 'El registro de cada respuesta del asistente y su coste.' },
];

/** The select's options: forever, the usual choices, and a saved value that is none of them (set from the API). */
export function retentionOptions(current: number | null): { value: string; label: string }[] {
  const days = [...RETENTION_DAY_CHOICES] as number[];
  if (current !== null && !days.includes(current)) days.push(current);
  return [{ value: '', label: 'Para siempre' }, ...days.sort((a, b) => a - b).map((d) => ({ value: String(d), label: d === 1 ? '1 día' : `${d} días` }))];
}

export const toDays = (value: string): number | null => (value === '' ? null : Number(value));
