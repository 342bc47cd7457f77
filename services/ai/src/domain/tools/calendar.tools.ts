import { type CalendarEvent, calendarRoutes, type CalendarSourceName, type FreeSlot } from '@asistente/contracts';
import {
  dateTime,
  integer,
  moreHint,
  nextPage,
  page,
  pageProperties,
  text,
  type AssistantTool,
  type ToolContext,
  type ToolOutcome,
  type ToolSource,
} from './tool.js';

const DAY_MS = 86_400_000;
/** The widest window a tool reads at once, so one call never pulls a year of events into the prompt. */
const MAX_RANGE_DAYS = 31;

/** [from, to] from the model's arguments: defaults to the next 7 days, never wider than MAX_RANGE_DAYS. */
export function range(args: Record<string, unknown>): { dateFrom: string; dateTo: string } {
  const from = dateTime(args, 'desde') ?? new Date().toISOString();
  const fromMs = Date.parse(from);
  const requested = dateTime(args, 'hasta');
  const toMs = requested ? Math.min(Date.parse(requested), fromMs + MAX_RANGE_DAYS * DAY_MS) : fromMs + 7 * DAY_MS;
  return { dateFrom: from, dateTo: new Date(Math.max(toMs, fromMs)).toISOString() };
}

/** The fields of a normalised event the model needs (instants, or dates for an all-day event). */
export function compactEvent(e: CalendarEvent): Record<string, unknown> {
  return { titulo: e.title, inicio: e.startTime, fin: e.endTime, todoElDia: e.allDay };
}

export async function freeSlots(context: ToolContext, dateFrom: string, dateTo: string, durationMinutes: number): Promise<FreeSlot[]> {
  return context.services.call(calendarRoutes.freeSlots, context.caller, { query: { dateFrom, dateTo, durationMinutes } });
}

export const rangeProperties = {
  desde: { type: 'string', description: 'Inicio, fecha y hora ISO 8601' },
  hasta: { type: 'string', description: 'Fin, fecha y hora ISO 8601' },
};

async function listSlots(context: ToolContext, args: Record<string, unknown>): Promise<ToolOutcome> {
  const { dateFrom, dateTo } = range(args);
  const duration = integer(args, 'duracion_minutos', 15, 240, 30);
  const slots = (await freeSlots(context, dateFrom, dateTo, duration)).slice(0, 20);
  return {
    result: { duracionMinutos: duration, huecos: slots.map((slot) => ({ inicio: slot.start, fin: slot.end })) },
    summary: `Buscó huecos libres de ${duration} min: ${slots.length} encontrado${slots.length === 1 ? '' : 's'}`,
  };
}

/** Free time carries nobody's data: the owner's runs and the customers' share this tool. */
export const freeSlotsTool: AssistantTool = {
  name: 'buscar_huecos_libres',
  description: 'Busca huecos libres en los calendarios del negocio para una reunión de cierta duración. Solo lectura.',
  parameters: {
    type: 'object',
    properties: { ...rangeProperties, duracion_minutos: { type: 'integer', minimum: 15, maximum: 240 } },
    additionalProperties: false,
  },
  run: listSlots,
};

/** The calendar providers the user has connected (Google, CalDAV, Outlook), as the calendar service's registry says. */
export async function connectedProviders({ services, caller }: ToolContext): Promise<CalendarSourceName[]> {
  return (await services.call(calendarRoutes.providers, caller)).providers.map((p) => p.source);
}

/**
 * Offered when any calendar provider is connected: every tool reads and writes through the calendar service's
 * provider-neutral routes (/events, /events/free-slots), which merge them all.
 */
export const calendarSource: ToolSource = {
  name: 'calendar',
  isAvailable: async (context) => (await connectedProviders(context)).length > 0,
  tools: [
    {
      name: 'listar_eventos',
      description: 'Lista los eventos de los calendarios del negocio entre dos fechas, por páginas. Solo lectura.',
      parameters: { type: 'object', properties: { ...rangeProperties, ...pageProperties(50) }, additionalProperties: false },
      run: async (context, args) => {
        const query = range(args);
        const paging = page(args, 50, 50);
        const all = await context.services.call(calendarRoutes.events, context.caller, { query });
        const events = all.slice((paging.page - 1) * paging.limit, paging.page * paging.limit).map(compactEvent);
        const next = nextPage(all.length, paging);
        return {
          result: { eventos: events, total: all.length, hayMas: next !== undefined, ...(next ? { siguientePagina: next } : {}) },
          summary: `Consultó el calendario: ${events.length} evento${events.length === 1 ? '' : 's'}${moreHint(next)}`,
        };
      },
    },
    freeSlotsTool,
  ],
};

/**
 * Creates an event in the owner's calendar (a personal token with calendar:write); the calendar service validates
 * it and, with no calendar named, puts it in the first connected provider's default calendar (Google's main one
 * when Google is connected).
 */
export const createEventTool: AssistantTool = {
  name: 'crear_evento',
  description: 'Crea un evento en el calendario principal del negocio.',
  parameters: {
    type: 'object',
    properties: {
      titulo: { type: 'string', minLength: 1, maxLength: 500 },
      inicio: { type: 'string', maxLength: 40, description: 'Fecha y hora ISO 8601 (o fecha AAAA-MM-DD si es de todo el día)' },
      fin: { type: 'string', maxLength: 40, description: 'Fecha y hora ISO 8601 (o fecha AAAA-MM-DD, el último día, si es de todo el día)' },
      descripcion: { type: 'string', maxLength: 8000 },
      lugar: { type: 'string', maxLength: 500 },
      todoElDia: { type: 'boolean' },
    },
    required: ['titulo', 'inicio', 'fin'],
    additionalProperties: false,
  },
  run: async ({ services, caller }, args) => {
    const body = {
      title: text(args, 'titulo', 500) ?? '',
      startTime: text(args, 'inicio', 40) ?? '',
      endTime: text(args, 'fin', 40) ?? '',
      description: text(args, 'descripcion', 8000),
      location: text(args, 'lugar', 500),
      allDay: args.todoElDia === true ? true : undefined,
    };
    const created = await services.call(calendarRoutes.createEvent, caller, { body });
    return { result: { creado: { id: created.id, ...compactEvent(created) } }, summary: `Creó el evento «${body.title}»` };
  },
};
