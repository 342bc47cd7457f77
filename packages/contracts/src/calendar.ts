import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';
import { literalUnion, spokenList } from './literals.js';

/** Google Meet meetings per page (spec: meetings default per page). */
export const MEETINGS_PAGE_SIZE = 20;

export const GoogleStatus = Type.Object({
  connected: Type.Boolean(),
  email: Type.Union([Type.String(), Type.Null()]),
  /** false when the administrator has not set GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET. */
  configured: Type.Boolean(),
  /** Google refused the stored grant (revoked or expired): the user must connect again. */
  needsReconnect: Type.Boolean(),
  message: Type.Union([Type.String(), Type.Null()]),
});
export type GoogleStatus = Static<typeof GoogleStatus>;

export const UrlResponse = Type.Object({ url: Type.String() });
export type UrlResponse = Static<typeof UrlResponse>;

export const GoogleCalendarEntry = Type.Object({
  id: Type.String(),
  summary: Type.String(),
  backgroundColor: Type.Union([Type.String(), Type.Null()]),
  primary: Type.Boolean(),
});
export type GoogleCalendarEntry = Static<typeof GoogleCalendarEntry>;

/**
 * The calendar providers, as events carry them in `source`: one list, which the events' schema, the range
 * query's filter, the providers' answer and the domain events (packages/contracts/src/events.ts) all read.
 */
export const CALENDAR_SOURCES = ['google', 'msteams', 'caldav'] as const;
/** A calendar provider's name, as events carry it in `source`. */
export const CalendarSourceName = literalUnion(CALENDAR_SOURCES);
export type CalendarSourceName = Static<typeof CalendarSourceName>;

/**
 * The normalised calendar event of the spec (section 3), the same for Google and Microsoft. Timed events: ISO
 * instants in startDate/endDate and the same instants in startTime/endTime. All-day events (`allDay: true`,
 * type 'reminder'): YYYY-MM-DD dates in both pairs, the last day inclusive (Google's exclusive end shown one
 * day earlier).
 */
export const CalendarEvent = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  startDate: Type.String(),
  endDate: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  location: Type.String(),
  attendees: Type.Array(Type.String()),
  type: Type.Union([Type.Literal('meeting'), Type.Literal('reminder'), Type.Literal('task')]),
  status: Type.String(),
  createdAt: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  source: CalendarSourceName,
  isRecurring: Type.Boolean(),
  recurrencePattern: Type.Union([Type.String(), Type.Null()]),
  allDay: Type.Boolean(),
  calendarId: Type.String(),
  /** The online meeting's join link, where the provider gives one (Outlook's Teams meetings). */
  joinUrl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CalendarEvent = Static<typeof CalendarEvent>;

/** The Google Calendar screen's event: the normalised one plus Google's own start/end and video link. */
export const GoogleEvent = Type.Intersect([
  CalendarEvent,
  Type.Object({
    summary: Type.Union([Type.String(), Type.Null()]),
    start: Type.Object({ dateTime: Type.Optional(Type.String()), date: Type.Optional(Type.String()) }),
    end: Type.Object({ dateTime: Type.Optional(Type.String()), date: Type.Optional(Type.String()) }),
    hangoutLink: Type.Union([Type.String(), Type.Null()]),
    htmlLink: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type GoogleEvent = Static<typeof GoogleEvent>;

const DateText = (required: string) => Type.String({ maxLength: 40, messages: { required, type: required } });
const optionalText = (max: number, name: string) =>
  Type.Optional(Type.String({ maxLength: max, messages: { maxLength: `${name} es demasiado larga`, type: `${name} debe ser texto` } }));

const eventFields = {
  title: Type.String({ maxLength: 500, messages: { required: 'El título es requerido', type: 'El título es requerido', maxLength: 'El título es demasiado largo' } }),
  startTime: DateText('La fecha de inicio es requerida'),
  endTime: DateText('La fecha de fin es requerida'),
  description: optionalText(8000, 'La descripción'),
  location: optionalText(500, 'La ubicación'),
};

/**
 * An all-day event (Calendario's grid): startTime and endTime are dates (YYYY-MM-DD), the end being the last
 * day the event covers, as the normalised event shows it (Google stores the day after).
 */
const allDayField = {
  allDay: Type.Optional(Type.Boolean({ messages: { type: 'allDay debe ser verdadero o falso' } })),
};

/** Spec's event form: title, startTime, endTime, description, location (and allDay). */
export const EventBody = Type.Object({ ...eventFields, ...allDayField }, { additionalProperties: false });
export type EventBody = Static<typeof EventBody>;

/** POST /events (the Calendario screen): the same form plus the calendar it goes to ('primary' by default). */
export const LocalEventBody = Type.Object(
  { ...eventFields, ...allDayField, calendarId: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })) },
  { additionalProperties: false },
);
export type LocalEventBody = Static<typeof LocalEventBody>;

export const EventRangeQuery = Type.Object({
  startDate: Type.Optional(Type.String({ maxLength: 40 })),
  endDate: Type.Optional(Type.String({ maxLength: 40 })),
  refresh: Type.Optional(Type.Boolean()),
  /** The first N events only (the Google Calendar screen lists 10). */
  maxResults: Type.Optional(Type.Integer({ minimum: 1, maximum: 2500, messages: { minimum: 'maxResults va de 1 a 2500', maximum: 'maxResults va de 1 a 2500', type: 'maxResults debe ser un número' } })),
});
export type EventRangeQuery = Static<typeof EventRangeQuery>;

const SOURCE_REFUSED = { messages: { const: `Origen inválido: usa ${spokenList(CALENDAR_SOURCES)}` } };

export const DateRangeQuery = Type.Object({
  dateFrom: Type.String({ maxLength: 40, messages: { required: 'Indica dateFrom (fecha de inicio)' } }),
  dateTo: Type.String({ maxLength: 40, messages: { required: 'Indica dateTo (fecha de fin)' } }),
  calendarId: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  refresh: Type.Optional(Type.Boolean()),
  /** One provider's events only (Calendario's Google and Teams tabs); every connected one by default. */
  source: Type.Optional(literalUnion(CALENDAR_SOURCES, SOURCE_REFUSED)),
});
export type DateRangeQuery = Static<typeof DateRangeQuery>;

/** GET /events/with-attendee: the events of a range that list exactly this address among their attendees. */
export const AttendeeEventsQuery = Type.Object({
  dateFrom: Type.String({ maxLength: 40, messages: { required: 'Indica dateFrom (fecha de inicio)' } }),
  dateTo: Type.String({ maxLength: 40, messages: { required: 'Indica dateTo (fecha de fin)' } }),
  attendee: Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { required: 'Indica el correo del invitado', pattern: 'Correo de invitado inválido', maxLength: 'Correo de invitado inválido' } }),
});
export type AttendeeEventsQuery = Static<typeof AttendeeEventsQuery>;

const HourText = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', messages: { pattern: 'La hora debe tener el formato HH:mm' } });

export const FreeSlotsQuery = Type.Object({
  dateFrom: Type.String({ maxLength: 40, messages: { required: 'Indica dateFrom (fecha de inicio)' } }),
  dateTo: Type.String({ maxLength: 40, messages: { required: 'Indica dateTo (fecha de fin)' } }),
  durationMinutes: Type.Integer({ minimum: 5, maximum: 600, default: 30, messages: { minimum: 'La duración mínima es de 5 minutos', maximum: 'La duración máxima es de 600 minutos', type: 'La duración debe ser un número de minutos' } }),
  workStart: Type.Optional(HourText),
  workEnd: Type.Optional(HourText),
  timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
});
export type FreeSlotsQuery = Static<typeof FreeSlotsQuery>;

export const FreeSlot = Type.Object({ start: Type.String(), end: Type.String() });
export type FreeSlot = Static<typeof FreeSlot>;

/** GET /events/free-slots: the route's response and what a sibling reads it as, one schema. */
export const FreeSlotList = Type.Array(FreeSlot);
export type FreeSlotList = Static<typeof FreeSlotList>;

/** GET /events and /events/with-attendee: every calendar's normalised events (the route's response). */
export const CalendarEventList = Type.Array(CalendarEvent);
export type CalendarEventList = Static<typeof CalendarEventList>;

/**
 * GET /events/providers: the calendar providers the user has connected, in the registry's order (the first
 * one takes an event created without `calendarId`). What the assistant asks before offering calendar tools.
 */
export const CalendarProviders = Type.Object({
  connected: Type.Boolean(),
  providers: Type.Array(Type.Object({ source: CalendarSourceName })),
});
export type CalendarProviders = Static<typeof CalendarProviders>;

export const CalendarParams = Type.Object({ calendarId: Type.String({ minLength: 1, maxLength: 300 }) });
export const CalendarEventParams = Type.Object({
  calendarId: Type.String({ minLength: 1, maxLength: 300 }),
  eventId: Type.String({ minLength: 1, maxLength: 300 }),
});
export const EventIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 300 }) });
export const EventIdQuery = Type.Object({ calendarId: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })) });
export const MonthParams = Type.Object({
  calendarId: Type.String({ minLength: 1, maxLength: 300 }),
  year: Type.Integer({ minimum: 1970, maximum: 2200, messages: { type: 'El año no es válido', minimum: 'El año no es válido', maximum: 'El año no es válido' } }),
  month: Type.Integer({ minimum: 1, maximum: 12, messages: { type: 'El mes debe ir de 1 a 12', minimum: 'El mes debe ir de 1 a 12', maximum: 'El mes debe ir de 1 a 12' } }),
});

export const MeetingBody = Type.Object(
  {
    ...eventFields,
    attendees: Type.Optional(
      Type.Array(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { pattern: 'Correo de invitado inválido', type: 'Correo de invitado inválido' } }), {
        maxItems: 100,
        messages: { maxItems: 'Máximo 100 invitados', type: 'Los invitados deben ser una lista de correos' },
      }),
    ),
    calendarId: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  },
  { additionalProperties: false },
);
export type MeetingBody = Static<typeof MeetingBody>;

export const Meeting = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  description: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  attendees: Type.Array(Type.String()),
  meetingUrl: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('ended')]),
  calendarId: Type.String(),
  eventId: Type.String(),
  createdAt: Type.String(),
});
export type Meeting = Static<typeof Meeting>;

export const MeetingListQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: MEETINGS_PAGE_SIZE }),
});
export type MeetingListQuery = Static<typeof MeetingListQuery>;

export const MeetingList = Type.Object({
  meetings: Type.Array(Meeting),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type MeetingList = Static<typeof MeetingList>;

export const MeetingIdParams = Type.Object({ id: Type.String({ format: 'uuid', messages: { format: 'Identificador inválido' } }) });

export const GoogleCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 4096 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
export type GoogleCallbackQuery = Static<typeof GoogleCallbackQuery>;
