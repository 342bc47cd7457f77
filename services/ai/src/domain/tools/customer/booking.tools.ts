import { calendarRoutes, type VideoMeetingBody } from '@asistente/contracts';
import { ServiceCallError } from '@asistente/kit';
import { freeSlots } from '../calendar.tools.js';
import { customerOf, dateTime, text, type AssistantTool, type ToolSource } from '../tool.js';

/** Meetings the assistant books per chat and UTC day; more is for a person of the team to decide. */
export const CUSTOMER_BOOKINGS_PER_DAY = 1;

/** Longer than the calendar service waits on a provider (Teams: 15 s), so its own answer arrives first. */
const BOOKING_TIMEOUT_MS = 20_000;

/**
 * The one tool that writes, offered to automatic answers with canBookMeetings on and the calendar offered.
 * The invitation goes to the customer's own address only (the owner organises the meeting): there is no
 * argument through which the model could invite anyone else.
 */
export const bookingTool: AssistantTool = {
  name: 'agendar_reunion',
  description:
    'Agenda una reunión por videollamada (Google Meet o Microsoft Teams, según el calendario conectado) con el cliente de este chat ' +
    'en un hueco libre que eligió (compruébalo antes con buscar_huecos_libres). ' +
    'Úsala solo cuando el cliente haya confirmado el día y la hora.',
  parameters: {
    type: 'object',
    properties: {
      titulo: { type: 'string' },
      inicio: { type: 'string', description: 'ISO 8601' },
      fin: { type: 'string', description: 'ISO 8601' },
    },
    required: ['titulo', 'inicio', 'fin'],
    additionalProperties: false,
  },
  run: async (context, args) => {
    const customer = customerOf(context);
    const start = dateTime(args, 'inicio');
    const end = dateTime(args, 'fin');
    if (!start || !end || Date.parse(end) <= Date.parse(start) || Date.parse(start) < Date.now()) {
      return { result: { error: 'Fechas no válidas' }, summary: 'Intentó agendar con fechas no válidas' };
    }
    // The model may misread the slots: book only what the calendar confirms free right now.
    const minutes = Math.round((Date.parse(end) - Date.parse(start)) / 60_000);
    const slots = await freeSlots(context, start, end, minutes);
    const free = slots.some((slot) => Date.parse(slot.start) <= Date.parse(start) && Date.parse(slot.end) >= Date.parse(end));
    if (!free) return { result: { error: 'Ese hueco ya no está libre' }, summary: 'Intentó agendar en un hueco ocupado' };
    if (!(await context.bookings.reserve(context.workspaceId, customer.chatKey, CUSTOMER_BOOKINGS_PER_DAY))) {
      return {
        result: { error: 'Hoy ya se agendó una reunión en este chat: otra la agenda una persona del equipo' },
        summary: 'Intentó agendar otra reunión hoy en este chat (límite diario)',
      };
    }
    const body: VideoMeetingBody = {
      title: text(args, 'titulo', 200) ?? 'Reunión',
      startTime: start,
      endTime: end,
      attendees: customer.addresses,
      description: 'Reunión agendada por el asistente de WhatsApp',
    };
    try {
      // The meeting port: the calendar service picks the provider connected (Google Meet, else Teams).
      const meeting = await context.services.call(calendarRoutes.createMeeting, context.caller, { body, timeoutMs: BOOKING_TIMEOUT_MS });
      return { result: { agendada: true, inicio: start, fin: end, enlace: meeting.joinUrl }, summary: `Agendó una reunión el ${start}` };
    } catch (error) {
      // Given back only when the calendar surely created nothing (it refused); a timeout may have booked.
      if (error instanceof ServiceCallError && error.statusCode < 500) await context.bookings.release(context.workspaceId, customer.chatKey);
      throw error;
    }
  },
};

/**
 * The booking tool creates a video meeting: offered only when the calendar service has a meeting provider
 * connected for the owner (a CalDAV calendar alone has none).
 */
export const bookingSource: ToolSource = {
  name: 'calendar-booking',
  isAvailable: async ({ services, caller }) => (await services.call(calendarRoutes.meetingProvider, caller)).provider !== null,
  tools: [bookingTool],
};
