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

/** Never the password: only whether, where and as whom. */
export const CaldavStatus = Type.Object({
  connected: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
});
export type CaldavStatus = Static<typeof CaldavStatus>;
