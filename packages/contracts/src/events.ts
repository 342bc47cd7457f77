import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The envelope every domain event travels in (outbox, NATS subject `<prefix>.<type>`, consumers). */
export const eventEnvelope = <T extends string, D extends TSchema>(type: T, data: D) =>
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    type: Type.Literal(type),
    userId: Type.String({ format: 'uuid' }),
    occurredAt: Type.String({ format: 'date-time' }),
    data,
  });

export const EVENT_DATA = {
  'auth.user.registered': Type.Object({}),
  'contacts.contact.created': Type.Object({ contactId: Type.String({ format: 'uuid' }), hasEmail: Type.Boolean() }),
  'contacts.contact.updated': Type.Object({ contactId: Type.String({ format: 'uuid' }) }),
  'contacts.contact.deleted': Type.Object({ contactId: Type.String({ format: 'uuid' }) }),
  'contacts.contact.imported': Type.Object({
    created: Type.Integer({ minimum: 0 }),
    updated: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = Static<(typeof EVENT_DATA)[T]>;
