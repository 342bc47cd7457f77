import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { errorHandler, notFoundHandler } from './errors.js';
import { createValidatorCompiler } from './validator.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface HttpAppOptions {
  log: Logger;
  bodyLimit: number;
  /** The gateway answers unknown non-API paths with the SPA, so it sets its own. */
  ownNotFoundHandler?: boolean;
}

/**
 * The Fastify instance every process starts from (gateway or a service alone):
 * request ids taken from `x-request-id` when sane and echoed back, the
 * house validator and error shape, and a 404 in that shape.
 */
export function createHttpApp(options: HttpAppOptions): App {
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    bodyLimit: options.bodyLimit,
    // genReqId reads the header itself so an unsafe value is replaced, not trusted.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: true,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());
  app.setErrorHandler(errorHandler);
  if (!options.ownNotFoundHandler) app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  return app;
}
