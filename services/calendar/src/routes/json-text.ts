import type { FastifyReply } from 'fastify';

/**
 * Sends a JSON array the database already built (the mirror's normalised events) as it is: the response
 * schema documents its shape, and re-serialising hundreds of events per request would cost more than the query.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer((payload: unknown) => payload as string).send(json);
}
