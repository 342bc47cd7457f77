import type { ConversationContact, ConversationEntry, InboxConversation, StatusFilter } from './api';

/** The customer as the list and the thread name them: the channel's name for them, else their number (a website's visitor has none). */
export const displayName = (c: Pick<InboxConversation, 'name' | 'handle' | 'channel'>) => c.name?.trim() || (c.channel === 'web' ? 'Visitante web' : c.handle);

/** The customer's contact as Contactos names them (a contact with no name yet by its phone). */
export const contactName = (c: ConversationContact) => `${c.firstName} ${c.lastName}`.trim() || c.phone || 'Ver contacto';

export const STATUS_LABELS: Record<InboxConversation['status'], string> = {
  open: 'Abierta',
  pending: 'Pendiente',
  resolved: 'Resuelta',
};

/** The status filter's choices, in the select's order. */
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'open', label: 'Abiertas' },
  { value: 'pending', label: 'Pendientes' },
  { value: 'resolved', label: 'Resueltas' },
  { value: 'any', label: 'Todas' },
];

const clock = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat('es-ES', { day: '2-digit', month: '2-digit' });
const dayAndClock = new Intl.DateTimeFormat('es-ES', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/** The list's time: the hour for today's activity, the day for older. */
export function listTime(iso: string | null, now = new Date()): string {
  if (!iso) return '';
  const at = new Date(iso);
  return sameDay(at, now) ? clock.format(at) : day.format(at);
}

export function entryTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return sameDay(at, now) ? clock.format(at) : dayAndClock.format(at);
}

/** Who wrote an outgoing message or a note, as the thread labels it (the customer's own need no label). */
export function authorLabel(entry: ConversationEntry): string | null {
  if (entry.kind === 'note') return entry.authorName ?? 'Alguien del equipo';
  switch (entry.author) {
    case 'assistant':
      return 'Asistente';
    case 'keyword':
      return 'Respuesta automática';
    case 'phone':
      return 'Desde el teléfono';
    case 'member':
      return entry.authorName ?? 'Alguien del equipo';
    case 'customer':
      return null;
  }
}
