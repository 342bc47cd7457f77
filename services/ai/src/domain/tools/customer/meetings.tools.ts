import { calendarRoutes } from '@asistente/contracts';
import { calendarSource, compactEvent, freeSlotsTool, range, rangeProperties } from '../calendar.tools.js';
import { customerOf, type ToolSource } from '../tool.js';

/** Free time, and the meetings the customer is invited to: never the owner's whole calendar. */
export const customerCalendarSource: ToolSource = {
  name: calendarSource.name,
  isAvailable: calendarSource.isAvailable,
  tools: [
    {
      name: 'listar_reuniones_del_cliente',
      description: 'Lista las reuniones del cliente de este chat (a las que está invitado) entre dos fechas. Solo lectura.',
      parameters: { type: 'object', properties: rangeProperties, additionalProperties: false },
      run: async (context, args) => {
        const { addresses } = customerOf(context);
        const query = range(args);
        const lists = await Promise.all(
          addresses.map(async (attendee) => {
            const answer = await context.services.call(calendarRoutes.withAttendee, context.caller, { query: { ...query, attendee } });
            // The calendar service filters by attendee; checked again here, so nothing else slips through.
            return answer.filter((event) => event.attendees.some((a) => a.trim().toLowerCase() === attendee));
          }),
        );
        const events = lists.flat().slice(0, 50).map(compactEvent);
        return { result: { reuniones: events }, summary: `Consultó las reuniones del cliente: ${events.length}` };
      },
    },
    freeSlotsTool,
  ],
};
