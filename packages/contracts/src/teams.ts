import { Type, type Static } from '@sinclair/typebox';
import { CalendarEvent, EventBody } from './calendar.js';
import { EMAIL_PATTERN } from './common.js';

// --- Connection ---------------------------------------------------------------------------------------

export const TeamsStatus = Type.Object({
  connected: Type.Boolean(),
  /** false when the administrator has not set MICROSOFT_CLIENT_ID / MICROSOFT_CLIENT_SECRET. */
  configured: Type.Boolean(),
  /** The sentence for the administrator when not configured. */
  message: Type.Optional(Type.String()),
  account: Type.Optional(Type.Object({ name: Type.String(), email: Type.String() })),
});
export type TeamsStatus = Static<typeof TeamsStatus>;

export const TeamsConnectResponse = Type.Object({ authUrl: Type.String() });
export const MicrosoftLoginResponse = Type.Object({ url: Type.String() });

// --- Teams, channels, messages ------------------------------------------------------------------------

export const TeamsTeam = Type.Object({ id: Type.String(), name: Type.String(), memberCount: Type.Integer({ minimum: 0 }) });
export type TeamsTeam = Static<typeof TeamsTeam>;

export const TeamsChannel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Graph's membershipType: standard, private or shared. */
  type: Type.String(),
  memberCount: Type.Integer({ minimum: 0 }),
});
export type TeamsChannel = Static<typeof TeamsChannel>;

export const TeamsMessage = Type.Object({
  id: Type.String(),
  author: Type.String(),
  /** Plain text: Graph's HTML body with tags removed and entities decoded. */
  content: Type.String(),
  createdAt: Type.String(),
  /** Written by the connected account itself. */
  mine: Type.Boolean(),
});
export type TeamsMessage = Static<typeof TeamsMessage>;

export const TEAMS_MESSAGE_MAX_LENGTH = 4000;
export const TEAMS_MESSAGES_PAGE_SIZE = 50;

export const TeamsIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 300, pattern: '^[^\\u0000/]+$', messages: { pattern: 'Identificador inválido', minLength: 'Identificador inválido', maxLength: 'Identificador inválido' } }),
});
export type TeamsIdParams = Static<typeof TeamsIdParams>;

export const TeamsMessagesQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: TEAMS_MESSAGES_PAGE_SIZE,
    messages: { minimum: 'El límite debe estar entre 1 y 200', maximum: 'El límite debe estar entre 1 y 200', type: 'El límite debe ser un número' },
  }),
});
export type TeamsMessagesQuery = Static<typeof TeamsMessagesQuery>;

export const TeamsMessageBody = Type.Object(
  {
    message: Type.String({
      maxLength: TEAMS_MESSAGE_MAX_LENGTH,
      messages: {
        required: 'El mensaje no puede estar vacío',
        type: 'El mensaje debe ser texto',
        maxLength: `El mensaje admite como máximo ${TEAMS_MESSAGE_MAX_LENGTH} caracteres`,
      },
    }),
  },
  { additionalProperties: false },
);
export type TeamsMessageBody = Static<typeof TeamsMessageBody>;

// --- Meetings -----------------------------------------------------------------------------------------

export const TeamsMeetingStatus = Type.Union([Type.Literal('scheduled'), Type.Literal('in-progress'), Type.Literal('ended')]);
export type TeamsMeetingStatus = Static<typeof TeamsMeetingStatus>;

export const TeamsMeeting = Type.Object({
  id: Type.String(),
  title: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  status: TeamsMeetingStatus,
  attendees: Type.Array(Type.String()),
  joinUrl: Type.Union([Type.String(), Type.Null()]),
});
export type TeamsMeeting = Static<typeof TeamsMeeting>;

export const TEAMS_MEETINGS_PAGE_SIZE = 20;

export const TeamsMeetingsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1000, default: 1, messages: { minimum: 'La página debe ser 1 o mayor', type: 'La página debe ser un número' } }),
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: TEAMS_MEETINGS_PAGE_SIZE,
    messages: { minimum: 'El límite debe estar entre 1 y 100', maximum: 'El límite debe estar entre 1 y 100', type: 'El límite debe ser un número' },
  }),
});
export type TeamsMeetingsQuery = Static<typeof TeamsMeetingsQuery>;

export const TeamsMeetingList = Type.Object({
  meetings: Type.Array(TeamsMeeting),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type TeamsMeetingList = Static<typeof TeamsMeetingList>;

const dateTime = (label: string) =>
  Type.String({
    format: 'date-time',
    messages: { required: `${label} es requerida`, format: `${label} no es una fecha y hora válida`, type: `${label} no es una fecha y hora válida` },
  });

export const TeamsMeetingBody = Type.Object(
  {
    title: Type.String({
      maxLength: 255,
      messages: { required: 'El título es requerido', type: 'El título debe ser texto', maxLength: 'El título admite como máximo 255 caracteres' },
    }),
    startTime: dateTime('La fecha de inicio'),
    endTime: dateTime('La fecha de fin'),
    attendees: Type.Optional(
      Type.Array(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { pattern: 'Correo de asistente inválido', type: 'Correo de asistente inválido' } }), {
        maxItems: 100,
        messages: { maxItems: 'Máximo 100 asistentes', type: 'Los asistentes deben ser una lista de correos' },
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 10_000, messages: { maxLength: 'La descripción admite como máximo 10000 caracteres' } })),
  },
  { additionalProperties: false },
);
export type TeamsMeetingBody = Static<typeof TeamsMeetingBody>;

// --- Outlook calendars --------------------------------------------------------------------------------

export const MicrosoftCalendar = Type.Object({ id: Type.String(), name: Type.String(), color: Type.String() });
export type MicrosoftCalendar = Static<typeof MicrosoftCalendar>;

export const MicrosoftEventsQuery = Type.Object({
  calendarId: Type.Optional(Type.String({ minLength: 1, maxLength: 300, pattern: '^[^\\u0000/]+$', messages: { pattern: 'Calendario inválido', minLength: 'Calendario inválido' } })),
  dateFrom: Type.Optional(Type.String({ format: 'date-time', messages: { format: 'dateFrom no es una fecha y hora válida' } })),
  dateTo: Type.Optional(Type.String({ format: 'date-time', messages: { format: 'dateTo no es una fecha y hora válida' } })),
});
export type MicrosoftEventsQuery = Static<typeof MicrosoftEventsQuery>;

const OutlookId = (message: string) =>
  Type.String({ minLength: 1, maxLength: 300, pattern: '^[^\\u0000/]+$', messages: { pattern: message, minLength: message, maxLength: message } });

/**
 * POST /microsoft/events (and /msteams/calendar/events) and PUT .../events/:eventId: Calendario's event form
 * (the calendar's EventBody: an all-day event names its first and last day) plus the Outlook calendar it is
 * in, the default one ('primary') unless told.
 */
export const MicrosoftEventBody = Type.Object(
  { ...EventBody.properties, calendarId: Type.Optional(OutlookId('Calendario inválido')) },
  { additionalProperties: false },
);
export type MicrosoftEventBody = Static<typeof MicrosoftEventBody>;

/** Graph's event id (a long base64 string, never with `/`). */
export const MicrosoftEventParams = Type.Object({ eventId: OutlookId('Evento inválido') });
export type MicrosoftEventParams = Static<typeof MicrosoftEventParams>;

/** DELETE .../events/:eventId: the calendar the event is in ('primary', the default one, unless told). */
export const MicrosoftEventQuery = Type.Object({ calendarId: Type.Optional(OutlookId('Calendario inválido')) });
export type MicrosoftEventQuery = Static<typeof MicrosoftEventQuery>;

/**
 * The normalised calendar event of the spec (section 3), shaped like calendar.ts's CalendarEvent (one shape
 * for Google and Microsoft in Calendario) with source msteams and the Teams join link when there is one.
 * Timed events: ISO instants in startDate/endDate and startTime/endTime. All-day events (`allDay: true`,
 * type 'reminder'): YYYY-MM-DD dates in both pairs with Graph's exclusive end (the day after the last), as the
 * spec's teams paths have always answered; the calendar service's registry (source msteams in GET /events)
 * makes it the last day, like every provider's.
 */
export const MicrosoftCalendarEvent = Type.Composite([
  Type.Omit(CalendarEvent, ['source', 'joinUrl']),
  Type.Object({ source: Type.Literal('msteams'), joinUrl: Type.Union([Type.String(), Type.Null()]) }),
]);
export type MicrosoftCalendarEvent = Static<typeof MicrosoftCalendarEvent>;

/** GET /microsoft/events: the route's response and what the calendar service reads it as, one schema. */
export const MicrosoftCalendarEventList = Type.Array(MicrosoftCalendarEvent);
export type MicrosoftCalendarEventList = Static<typeof MicrosoftCalendarEventList>;
