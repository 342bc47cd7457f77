import { Contact, contactsRoutes, scopesCover, TIMELINE_SECTION_SCOPES } from '@asistente/contracts';
import type { AssistantTool, ToolSource } from './tool.js';
import { integer, moreHint, nextPage, page, pageProperties, text } from './tool.js';

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

const CONTACT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVALID_ID = { result: { error: 'Id de contacto no válido' }, summary: 'Pidió un contacto con un id no válido' };

export const contactsSource: ToolSource = {
  name: 'contacts',
  isAvailable: async ({ services, caller }) => {
    await services.call(contactsRoutes.list, caller, { query: { limit: 1 } });
    return true;
  },
  tools: [
    {
      name: 'buscar_contactos',
      description: 'Busca contactos del negocio por nombre, correo, teléfono o empresa, por páginas. Solo lectura.',
      parameters: {
        type: 'object',
        properties: { texto: { type: 'string', description: 'Lo que se busca' }, ...pageProperties(25) },
        required: ['texto'],
        additionalProperties: false,
      },
      run: async ({ services, caller }, args) => {
        const search = text(args, 'texto', 100) ?? '';
        const paging = page(args, 25, 10);
        const list = await services.call(contactsRoutes.list, caller, { query: { search, ...paging } });
        const next = nextPage(list.total, paging);
        return {
          result: { total: list.total, pagina: paging.page, contactos: list.contacts.map(brief), hayMas: next !== undefined, ...(next ? { siguientePagina: next } : {}) },
          summary: `Buscó contactos «${search}»: ${list.total} encontrado${list.total === 1 ? '' : 's'}${moreHint(next)}`,
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
      run: async ({ services, caller }, args) => {
        const id = text(args, 'id', 60) ?? '';
        if (!CONTACT_ID.test(id)) return INVALID_ID;
        const contact = await services.call(contactsRoutes.get, caller, { params: { id: id } });
        return { result: brief(contact), summary: `Leyó el contacto ${contact.firstName} ${contact.lastName}`.trim() };
      },
    },
  ],
};

const CHANNEL_NAMES = { whatsapp: 'WhatsApp', email: 'correo', calendar: 'calendario' } as const;

/**
 * A contact's history across channels, newest first per channel. A personal token that may read contacts but
 * not, say, WhatsApp gets no WhatsApp section: the timeline never widens what the token reaches.
 */
export const contactTimelineTool: AssistantTool = {
  name: 'historial_contacto',
  description: 'Lee el historial de un contacto en todos los canales (WhatsApp, correo, calendario), lo más reciente primero. Solo lectura.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'Id del contacto (el que devuelve buscar_contactos)' },
      limite: { type: 'integer', minimum: 1, maximum: 30, description: 'Cuántas entradas por canal (máximo 30)' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  run: async ({ services, caller, scopes }, args) => {
    const id = text(args, 'id', 60) ?? '';
    if (!CONTACT_ID.test(id)) return INVALID_ID;
    const limit = integer(args, 'limite', 1, 30, 10);
    const timeline = await services.call(contactsRoutes.timeline, caller, { params: { id: id } });
    // Asked with a service token (no scopes), so the timeline comes whole: bounded here by the caller's.
    const sections = timeline.sections.filter((section) => scopesCover(scopes, TIMELINE_SECTION_SCOPES[section.channel]));
    const canales = sections.map((section) => {
      const items = [...section.items].sort((a, b) => b.at.localeCompare(a.at));
      return {
        canal: CHANNEL_NAMES[section.channel],
        total: items.length,
        entradas: items.slice(0, limit).map((item) => ({
          fecha: item.at,
          titulo: item.title.slice(0, 200),
          ...(item.detail ? { detalle: item.detail.slice(0, 300) } : {}),
          ...(item.direction ? { sentido: item.direction === 'incoming' ? 'recibido' : 'enviado' } : {}),
        })),
        hayMas: items.length > limit,
      };
    });
    const count = canales.reduce((sum, channel) => sum + channel.total, 0);
    return {
      result: { canales },
      summary: `Leyó el historial del contacto: ${count} entrada${count === 1 ? '' : 's'} en ${canales.length} canal${canales.length === 1 ? '' : 'es'}`,
    };
  },
};

/** Creates one contact for the owner (a personal token with contacts:write); the contacts service validates it. */
export const createContactTool: AssistantTool = {
  name: 'crear_contacto',
  description: 'Crea un contacto nuevo en la agenda del negocio.',
  parameters: {
    type: 'object',
    properties: {
      nombre: { type: 'string', minLength: 1, maxLength: 100 },
      apellidos: { type: 'string', maxLength: 100 },
      email: { type: 'string', maxLength: 254 },
      telefono: { type: 'string', maxLength: 40 },
      empresa: { type: 'string', maxLength: 120 },
      notas: { type: 'string', maxLength: 5000 },
      etiquetas: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 50 },
    },
    required: ['nombre'],
    additionalProperties: false,
  },
  run: async ({ services, caller }, args) => {
    const tags = Array.isArray(args.etiquetas) ? args.etiquetas.filter((tag): tag is string => typeof tag === 'string') : undefined;
    const body = {
      firstName: text(args, 'nombre', 100) ?? '',
      lastName: text(args, 'apellidos', 100) ?? '',
      email: text(args, 'email', 254),
      phone: text(args, 'telefono', 40),
      company: text(args, 'empresa', 120),
      notes: text(args, 'notas', 5000),
      tags,
    };
    const contact = await services.call(contactsRoutes.create, caller, { body });
    return { result: { creado: brief(contact) }, summary: `Creó el contacto ${contact.firstName} ${contact.lastName}`.trim() };
  },
};
