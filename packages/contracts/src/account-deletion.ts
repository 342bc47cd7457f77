import { Type, type Static } from '@sinclair/typebox';

/**
 * "Eliminar mi cuenta". Auth checks the password, erases the user row (every session and token stops at
 * once) and writes one `user.deleted` event; every service erases what it holds of that user and reports
 * its progress with `account.erasure.progressed`, which auth records under the deletion's id. The record
 * holds no personal data: the id, the times and each service's state.
 */

/** The services that erase a user's data, in the order the progress view lists them. */
export const ERASING_SERVICES = ['auth', 'contacts', 'calendar', 'whatsapp', 'email', 'teams', 'ai', 'analytics', 'webhooks', 'inbox'] as const;
export type ErasingService = (typeof ERASING_SERVICES)[number];

/** What each service's line of the progress view says, in Spanish. */
export const ERASING_SERVICE_LABELS: Record<ErasingService, string> = {
  auth: 'Cuenta, sesiones y actividad de seguridad',
  contacts: 'Contactos, papelera y vistas guardadas',
  calendar: 'Calendario y acceso a Google',
  whatsapp: 'WhatsApp: chats, mensajes y vinculación',
  email: 'Correo: cuentas, mensajes y plantillas',
  teams: 'Microsoft Teams: conexión, canales y reuniones',
  ai: 'Asistente IA: configuración, clave y ejecuciones',
  analytics: 'Estadísticas',
  webhooks: 'Webhooks y su registro de entregas',
  inbox: 'Conversaciones del equipo, notas y asignaciones',
};

const ServiceName = Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z][a-z0-9-]*$' });
/** A provider that could not be reached or refused: said in Spanish, never a token or an address. */
const Problem = Type.String({ minLength: 1, maxLength: 300 });

/** `user.deleted`: the envelope's userId is the erased user; deletionId names the deletion's record. */
export const UserDeletedEventData = Type.Object({ deletionId: Type.String({ format: 'uuid' }) });
export type UserDeletedEventData = Static<typeof UserDeletedEventData>;

export const ErasureStatus = Type.Union([Type.Literal('running'), Type.Literal('done')]);
export type ErasureStatus = Static<typeof ErasureStatus>;

/**
 * `account.erasure.progressed`: the envelope's userId is the deletion's id, not the erased user's, so this
 * report is no row of the user's (it outlives the user's outbox rows, which each service erases).
 */
export const ErasureProgressedEventData = Type.Object({
  deletionId: Type.String({ format: 'uuid' }),
  service: ServiceName,
  status: ErasureStatus,
  problems: Type.Array(Problem, { maxItems: 20 }),
});
export type ErasureProgressedEventData = Static<typeof ErasureProgressedEventData>;

/** POST /account/delete */
export const DeleteAccountBody = Type.Object(
  {
    password: Type.String({
      minLength: 1,
      maxLength: 200,
      messages: {
        required: 'Escribe tu contraseña para eliminar la cuenta',
        minLength: 'Escribe tu contraseña para eliminar la cuenta',
        maxLength: 'La contraseña no es correcta',
        type: 'La contraseña debe ser un texto',
      },
    }),
  },
  { additionalProperties: false },
);
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

/** 202 of POST /account/delete: the id is also the key to its progress (the sessions end at once). */
export const DeleteAccountStarted = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type DeleteAccountStarted = Static<typeof DeleteAccountStarted>;

export const AccountDeletionParams = Type.Object({
  id: Type.String({ format: 'uuid', messages: { format: 'El identificador de la eliminación no es válido', type: 'El identificador de la eliminación no es válido' } }),
});

export const ServiceErasure = Type.Object({
  service: ServiceName,
  label: Type.String(),
  status: Type.Union([Type.Literal('pending'), ErasureStatus]),
  problems: Type.Array(Problem),
});
export type ServiceErasure = Static<typeof ServiceErasure>;

/** GET /account/delete/:id */
export const AccountDeletionProgress = Type.Object({
  id: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('running'), Type.Literal('done')]),
  requestedAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  services: Type.Array(ServiceErasure),
});
export type AccountDeletionProgress = Static<typeof AccountDeletionProgress>;
