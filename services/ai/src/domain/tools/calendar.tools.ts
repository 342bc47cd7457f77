import { dateTime, integer, listOf, saysConnected, type AssistantTool, type ToolContext, type ToolOutcome, type ToolSource } from './tool.js';

const DAY_MS = 86_400_000;
/** The widest window a tool reads at once, so one call never pulls a year of events into the prompt. */
const MAX_RANGE_DAYS = 31;

export interface Slot {
  start: string;
  end: string;
}

/** [from, to] from the model's arguments: defaults to the next 7 days, never wider than MAX_RANGE_DAYS. */
export function range(args: Record<string, unknown>): { dateFrom: string; dateTo: string } {
  const from = dateTime(args, 'desde') ?? new Date().toISOString();
  const fromMs = Date.parse(from);
  const requested = dateTime(args, 'hasta');
  const toMs = requested ? Math.min(Date.parse(requested), fromMs + MAX_RANGE_DAYS * DAY_MS) : fromMs + 7 * DAY_MS;
  return { dateFrom: from, dateTo: new Date(Math.max(toMs, fromMs)).toISOString() };
}

export function compactEvent(raw: unknown): Record<string, unknown> {
  const e = (raw ?? {}) as Record<string, unknown>;
  return { titulo: e.title ?? e.summary ?? null, inicio: e.start ?? e.startTime ?? null, fin: e.end ?? e.endTime ?? null, todoElDia: e.allDay ?? false };
}

export async function freeSlots(context: ToolContext, dateFrom: string, dateTo: string, durationMinutes: number): Promise<Slot[]> {
  const answer = await context.services.request('calendar', context.userId, '/events/free-slots', {
    query: { dateFrom, dateTo, durationMinutes },
  });
  return listOf(answer, 'slots')
    .map((slot) => slot as Partial<Slot>)
    .filter((slot): slot is Slot => typeof slot.start === 'string' && typeof slot.end === 'string');
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

export const calendarSource: ToolSource = {
  name: 'calendar',
  isAvailable: async ({ services, userId }) => saysConnected(await services.request('calendar', userId, '/google/google-calendar/status')),
  tools: [
    {
      name: 'listar_eventos',
      description: 'Lista los eventos de los calendarios del negocio entre dos fechas. Solo lectura.',
      parameters: { type: 'object', properties: rangeProperties, additionalProperties: false },
      run: async (context, args) => {
        const query = range(args);
        const events = listOf(await context.services.request('calendar', context.userId, '/events', { query }), 'events')
          .slice(0, 50)
          .map(compactEvent);
        return { result: { eventos: events }, summary: `Consultó el calendario: ${events.length} evento${events.length === 1 ? '' : 's'}` };
      },
    },
    freeSlotsTool,
  ],
};
