import type { Static, TSchema } from '@sinclair/typebox';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `:name` segments of a path template, as a union of names (never when it has none). */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a path template needs, one string per `:name` segment. */
export type PathParams<Path extends string> = Record<ParamNames<Path>, string>;

/**
 * One route of a service as both sides see it: the service that serves it (below /api), its method and path
 * template, and the schemas of its request and its successful answer. The route registers through it (the kit's
 * `describedRoute`) and the service client sends and checks by it, so the caller and the route cannot drift apart.
 */
export interface RouteDescriptor<
  Service extends string = string,
  Path extends string = string,
  Query extends TSchema | undefined = TSchema | undefined,
  Body extends TSchema | undefined = TSchema | undefined,
  Response extends TSchema = TSchema,
  Params extends TSchema | undefined = TSchema | undefined,
> {
  readonly service: Service;
  readonly method: RouteMethod;
  readonly path: Path;
  /** The route's own check of the path values (the caller's are typed from the template). */
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  /** The schema of the 2xx answer (Type.Null() for a 204). */
  readonly response: Response;
}

/** Declares a route descriptor, keeping every literal (service, path) and schema type for the callers. */
export function route<
  const Service extends string,
  const Path extends string,
  Response extends TSchema,
  Query extends TSchema | undefined = undefined,
  Body extends TSchema | undefined = undefined,
  Params extends TSchema | undefined = undefined,
>(descriptor: {
  service: Service;
  method: RouteMethod;
  path: Path;
  params?: Params;
  query?: Query;
  body?: Body;
  response: Response;
}): RouteDescriptor<Service, Path, Query, Body, Response, Params> {
  return descriptor;
}

/** The path of `descriptor` with its `:name` segments filled in (each value URL-encoded). */
export function routePath<Path extends string>(path: Path, params: PathParams<Path>): string {
  const values = params as Record<string, string>;
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * What a call of `descriptor` sends: the path values, the query and the body its schemas type. Every query field
 * is optional here: the route fills its defaults (a page, a limit) and refuses a missing required one.
 */
export type RouteParts<D extends RouteDescriptor> = ([ParamNames<D['path']>] extends [never] ? { params?: undefined } : { params: PathParams<D['path']> }) &
  ([NonNullable<D['query']>] extends [never] ? { query?: undefined } : { query?: Partial<Static<NonNullable<D['query']>>> }) &
  ([NonNullable<D['body']>] extends [never] ? { body?: undefined } : { body: Static<NonNullable<D['body']>> });

/** What a call of `descriptor` answers. */
export type RouteAnswer<D extends RouteDescriptor> = Static<D['response']>;
