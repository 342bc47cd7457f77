import type { Contact, ContactList } from '@asistente/contracts';
import type { ToolSource } from './tool.js';
import { text } from './tool.js';

/** What the model needs of a contact, nothing more (no internal timestamps). */
function brief(contact: Contact) {
  return {
    id: contact.id,
    nombre: `${contact.firstName} ${contact.lastName}`.trim(),
    email: contact.email,
    telefono: contact.phone,
    empresa: contact.company,
    etiquetas: contact.tags,
  };
}

export const contactsSource: ToolSource = {
  name: 'contacts',
  isAvailable: async ({ services, userId }) => {
    await services.request('contacts', userId, '/contacts', { query: { limit: 1 } });
    return true;
  },
  tools: [
    {
      name: 'buscar_contactos',
      description: 'Busca contactos del negocio por nombre, correo, teléfono o empresa. Solo lectura.',
      parameters: {
        type: 'object',
        properties: { texto: { type: 'string', description: 'Lo que se busca' } },
        required: ['texto'],
        additionalProperties: false,
      },
      run: async ({ services, userId }, args) => {
        const search = text(args, 'texto', 100) ?? '';
        const list = await services.request<ContactList>('contacts', userId, '/contacts', { query: { search, limit: 10 } });
        return {
          result: { total: list.total, contactos: list.contacts.map(brief) },
          summary: `Buscó contactos «${search}»: ${list.total} encontrado${list.total === 1 ? '' : 's'}`,
        };
      },
    },
    {
      name: 'leer_contacto',
      description: 'Lee un contacto por su id (el que devuelve buscar_contactos). Solo lectura.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Id del contacto' } },
        required: ['id'],
        additionalProperties: false,
      },
      run: async ({ services, userId }, args) => {
        const id = text(args, 'id', 60) ?? '';
        if (!/^[0-9a-f-]{36}$/i.test(id)) return { result: { error: 'Id de contacto no válido' }, summary: 'Pidió un contacto con un id no válido' };
        const contact = await services.request<Contact>('contacts', userId, `/contacts/${id}`);
        return { result: brief(contact), summary: `Leyó el contacto ${contact.firstName} ${contact.lastName}`.trim() };
      },
    },
  ],
};
