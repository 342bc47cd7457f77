import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteDescriptor } from '@asistente/contracts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { ContextConfigDefault, FastifyBaseLogger, FastifySchema, RawServerDefault, RouteGenericInterface, RouteOptions } from 'fastify';
import type { App } from './app.js';

/** The codes a route answers success with: a read or an update 200, a creation 201, an answer without body 204. */
type SuccessStatus = 200 | 201 | 204;

/** A route's error answers by status, as it declares them for the API reference. */
type ErrorSchemas = Readonly<Record<number, TSchema>>;

/** A descriptor's schema when it has one; left out of the route's schema otherwise. */
type Declared<S> = [Exclude<S, undefined>] extends [never] ? undefined : Exclude<S, undefined>;

/** The Fastify schema of a described route, which types its handler's request and reply through TypeBox. */
type DescribedSchema<D extends RouteDescriptor, Status extends SuccessStatus, Errors extends ErrorSchemas> = FastifySchema & {
  params: Declared<D['params']>;
  querystring: Declared<D['query']>;
  body: Declared<D['body']>;
  response: { [S in Status]: D['response'] } & Errors;
};

type DescribedRouteOptions<D extends RouteDescriptor, Status extends SuccessStatus, Errors extends ErrorSchemas> = Omit<
  RouteOptions<RawServerDefault, IncomingMessage, ServerResponse, RouteGenericInterface, ContextConfigDefault, DescribedSchema<D, Status, Errors>, TypeBoxTypeProvider, FastifyBaseLogger>,
  'method' | 'url' | 'schema'
> & {
  /** The API reference's line for the operation (Spanish, as a user reads it). */
  summary: string;
  description?: string;
  errors: Errors;
  /** The success code the handler answers with: the descriptor says what, not with which code. Default 200. */
  status?: Status;
  /** Another path the same route is served at too (a name the spec also uses); default the descriptor's. */
  url?: string;
};

/**
 * Registers the route `descriptor` describes (`packages/contracts/src/routes`): its method, path and every schema
 * (params, query, body, success answer) come from the descriptor the service client calls by, so the caller and the
 * route check the same objects; the route adds what only it knows: its documentation, its error answers, its
 * success code and its handler, typed from the descriptor's schemas.
 */
export function describedRoute<D extends RouteDescriptor, Errors extends ErrorSchemas, const Status extends SuccessStatus = 200>(
  app: App,
  descriptor: D,
  options: DescribedRouteOptions<D, Status, Errors>,
): void {
  const { summary, description, errors, status = 200, url = descriptor.path, ...route } = options;
  const schema: FastifySchema & { summary: string; description?: string } = {
    summary,
    ...(description === undefined ? {} : { description }),
    ...(descriptor.params === undefined ? {} : { params: descriptor.params }),
    ...(descriptor.query === undefined ? {} : { querystring: descriptor.query }),
    ...(descriptor.body === undefined ? {} : { body: descriptor.body }),
    response: { [status]: descriptor.response, ...errors },
  };
  app.route({ ...(route as Omit<RouteOptions, 'method' | 'url' | 'schema'>), method: descriptor.method, url, schema });
}
