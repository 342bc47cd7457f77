import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './common.js';

// The meeting port's routes (calendar service): a video meeting with whichever provider the member has
// connected (Google Meet with Google, Teams with only Microsoft), the provider named but never shaping it.

const dateTime = (label: string) => Type.String({ maxLength: 40, messages: { required: `${label} es requerida`, type: `${label} debe ser texto` } });

/** POST /meetings: a video meeting for a time range, with a title and the attendees invited to it. */
export const VideoMeetingBody = Type.Object(
  {
    title: Type.String({ maxLength: 255, messages: { required: 'El título es requerido', type: 'El título es requerido', maxLength: 'El título admite como máximo 255 caracteres' } }),
    startTime: dateTime('La fecha de inicio'),
    endTime: dateTime('La fecha de fin'),
    attendees: Type.Optional(
      Type.Array(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, messages: { pattern: 'Correo de invitado inválido', type: 'Correo de invitado inválido' } }), {
        maxItems: 100,
        messages: { maxItems: 'Máximo 100 invitados', type: 'Los invitados deben ser una lista de correos' },
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 8000, messages: { maxLength: 'La descripción es demasiado larga', type: 'La descripción debe ser texto' } })),
  },
  { additionalProperties: false },
);
export type VideoMeetingBody = Static<typeof VideoMeetingBody>;

/** A created video meeting: its provider's id for it, the provider's name, and the link to join. */
export const VideoMeeting = Type.Object({
  id: Type.String(),
  /** The provider's name in the calendar service's registry (`google-meet`, `teams`). */
  provider: Type.String(),
  /** Null only when the provider created the meeting without a link yet (Google may attach it later). */
  joinUrl: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  attendees: Type.Array(Type.String()),
});
export type VideoMeeting = Static<typeof VideoMeeting>;

/** GET /meetings/provider: where a new meeting would go for this member, or null when nothing is connected. */
export const MeetingProviderChoice = Type.Object({
  provider: Type.Union([Type.String(), Type.Null()]),
});
export type MeetingProviderChoice = Static<typeof MeetingProviderChoice>;
