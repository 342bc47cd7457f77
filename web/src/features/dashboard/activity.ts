import type { ActivityEvent, RecentContact } from './api';

export interface ActivityItem {
  id: string;
  text: string;
  at: string;
}

type Data = Record<string, unknown>;
const count = (data: Data, key: string) => Number(data[key]) || 0;

const DESCRIBE: Record<string, (data: Data) => string> = {
  'auth.user.registered': () => 'Cuenta creada',
  'contacts.contact.created': () => 'Nuevo contacto',
  'contacts.contact.updated': () => 'Contacto actualizado',
  'contacts.contact.deleted': () => 'Contacto eliminado',
  'contacts.contact.imported': (d) => `Contactos importados: ${count(d, 'created')} nuevos, ${count(d, 'updated')} actualizados`,
  'email.message.sent': () => 'Correo enviado',
  'email.message.received': () => 'Correo recibido',
  'email.message.opened': () => 'Correo abierto por el destinatario',
  'email.message.clicked': () => 'Clic en un enlace de un correo',
  'whatsapp.message.sent': () => 'Mensaje de WhatsApp enviado',
  'whatsapp.message.received': () => 'Mensaje de WhatsApp recibido',
  'whatsapp.autoreply.sent': (d) => (d.kind === 'ai' ? 'Respuesta del asistente IA enviada' : 'Respuesta automática enviada'),
  'whatsapp.contacts.synced': (d) => `Sincronizados: ${count(d, 'created')} nuevos, ${count(d, 'updated')} actualizados`,
  'calendar.event.created': () => 'Evento creado',
  'calendar.event.updated': () => 'Evento actualizado',
  'calendar.event.deleted': () => 'Evento eliminado',
  'meet.meeting.created': () => 'Reunión de Google Meet creada',
  'teams.meeting.created': () => 'Reunión de Teams creada',
  'teams.message.sent': () => 'Mensaje de Teams enviado',
  'teams.message.received': () => 'Mensaje de Teams recibido',
  'ai.run.completed': () => 'Respuesta generada con OpenAI',
};

const fullName = (c: RecentContact) => `${c.firstName} ${c.lastName}`.trim();

/** The analytics feed in words; contact events name the contact when it is among the recent ones, events and meetings their title. */
export function fromEvents(events: ActivityEvent[], contacts: RecentContact[]): ActivityItem[] {
  const names = new Map(contacts.map((c) => [c.id, fullName(c)]));
  return events.flatMap((event) => {
    const describe = DESCRIBE[event.type];
    if (!describe) return [];
    const title = typeof event.data.title === 'string' ? event.data.title.trim() : '';
    const name = typeof event.data.contactId === 'string' ? names.get(event.data.contactId) : title || undefined;
    const text = describe(event.data);
    return [{ id: event.id, text: name ? `${text}: ${name}` : text, at: event.occurredAt }];
  });
}

/** Without the analytics service, the newest contacts are the activity there is. */
export function fromContacts(contacts: RecentContact[]): ActivityItem[] {
  return contacts
    .map((c) => {
      // A contact edited more than a second after creation reads as an update.
      const updated = new Date(c.updatedAt).getTime() - new Date(c.createdAt).getTime() > 1000;
      return updated
        ? { id: c.id, text: `Contacto actualizado: ${fullName(c)}`, at: c.updatedAt }
        : { id: c.id, text: `Nuevo contacto: ${fullName(c)}`, at: c.createdAt };
    })
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, 5);
}
