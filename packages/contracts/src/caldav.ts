import { Type, type Static } from '@sinclair/typebox';

/** Presets the connect form offers (Nextcloud's needs the user's own server in place of <servidor>). */
export const CALDAV_PRESETS = [
  { id: 'icloud', name: 'iCloud', url: 'https://caldav.icloud.com' },
  { id: 'fastmail', name: 'Fastmail', url: 'https://caldav.fastmail.com' },
  { id: 'nextcloud', name: 'Nextcloud', url: 'https://<servidor>/remote.php/dav' },
] as const;

const required = (message: string, max: number, tooLong: string) =>
  Type.String({ minLength: 1, maxLength: max, messages: { required: message, type: message, minLength: message, maxLength: tooLong } });

/** POST /api/caldav/connect: the server as the user typed it (https:// is added when missing), user and app password. */
export const CaldavConnectBody = Type.Object(
  {
    url: required('Indica la dirección del servidor CalDAV', 500, 'La dirección del servidor es demasiado larga'),
    username: required('Indica el usuario', 320, 'El usuario es demasiado largo'),
    password: required('Indica la contraseña de aplicación', 500, 'La contraseña es demasiado larga'),
  },
  { additionalProperties: false },
);
export type CaldavConnectBody = Static<typeof CaldavConnectBody>;

/** A CalDAV calendar: its id is the collection's URL (the calendarId of /api/events). */
export const CaldavCalendarEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.Union([Type.String(), Type.Null()]),
});
export type CaldavCalendarEntry = Static<typeof CaldavCalendarEntry>;

export const CaldavConnectResponse = Type.Object({
  connected: Type.Literal(true),
  calendars: Type.Array(CaldavCalendarEntry),
});
export type CaldavConnectResponse = Static<typeof CaldavConnectResponse>;

const CALENDAR_NAME = 'Indica el nombre del calendario';

/**
 * POST /api/caldav/calendars: a new calendar on the connected server, by the name it will show (some text,
 * no control characters, at most 100 characters; surrounding spaces are dropped).
 */
export const CaldavCalendarBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$',
      messages: { required: CALENDAR_NAME, type: CALENDAR_NAME, minLength: CALENDAR_NAME, pattern: 'El nombre del calendario no puede estar vacío ni llevar saltos de línea', maxLength: 'El nombre del calendario es demasiado largo (máximo 100 caracteres)' },
    }),
  },
  { additionalProperties: false },
);
export type CaldavCalendarBody = Static<typeof CaldavCalendarBody>;

/** Never the password: only whether, where and as whom. */
export const CaldavStatus = Type.Object({
  connected: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
});
export type CaldavStatus = Static<typeof CaldavStatus>;
