import type { InboxSettings } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export type { InboxSettings };

export const fetchInboxRules = () => getJson<InboxSettings>('conversations/settings');
export const saveInboxRules = (rules: InboxSettings) => sendJson<InboxSettings>('patch', 'conversations/settings', rules);

/** Who a new (or reopened) conversation goes to, in the owner's words and the select's order. */
export const ASSIGNMENT_CHOICES: { value: InboxSettings['assignment']; label: string }[] = [
  { value: 'none', label: 'Nadie' },
  { value: 'round_robin', label: 'Por turnos' },
  { value: 'fewest_open', label: 'A quien tenga menos abiertas' },
];
