import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonView } from '../domain/view-cache.js';

/** A client that takes gzip (every browser): a month is ~8 KB instead of ~230 KB. */
const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/**
 * Sends a JSON array the database already built (the mirror's normalised events) as its cached bytes: the
 * response schema documents its shape, and re-serialising hundreds of events per request would cost more than
 * the query. A client holding the same view (If-None-Match) gets 304 and no body; one that accepts gzip gets
 * the view's gzipped bytes (compressed once per view, not per answer).
 */
export async function sendJsonView(request: FastifyRequest, reply: FastifyReply, view: JsonView): Promise<FastifyReply> {
  reply.header('etag', view.etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === view.etag) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  // Fastify sends a Buffer as it is (no serialiser runs).
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(await view.gzipped());
  return reply.send(view.body);
}

/**
 * Sends an answer that names a calendar provider as JSON text, past the response schema's serialiser: the
 * schema documents the built-in providers (the contracts' list), while a registration may add another
 * (a test's in-memory one), whose name the serialiser would refuse.
 */
export function sendProviderJson(reply: FastifyReply, value: unknown, code = 200): FastifyReply {
  return reply.code(code).type('application/json; charset=utf-8').send(JSON.stringify(value));
}
