import { contactsSource } from '../contacts.tools.js';
import { customerOf, type ToolSource } from '../tool.js';

/**
 * The customer's own contact record, already matched by the server from the chat's phone: the tool takes no
 * argument, so nothing the model writes can name another contact. The owner's notes and tags stay out.
 */
export const customerContactSource: ToolSource = {
  name: contactsSource.name,
  isAvailable: contactsSource.isAvailable,
  tools: [
    {
      name: 'leer_ficha_del_cliente',
      description: 'Lee la ficha de contacto del cliente de este chat (nombre, correo, teléfono, empresa). Solo lectura.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      run: async (context) => {
        const { contact } = customerOf(context);
        if (!contact) return { result: { contacto: null }, summary: 'Leyó la ficha del cliente: no hay ficha para este chat' };
        const nombre = `${contact.firstName} ${contact.lastName}`.trim();
        return {
          result: { contacto: { nombre, email: contact.email, telefono: contact.phone, empresa: contact.company } },
          summary: `Leyó la ficha del cliente ${nombre}`,
        };
      },
    },
  ],
};
