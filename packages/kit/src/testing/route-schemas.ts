import { compileSerializer } from '../http/serializer.js';
import { requestPartCompiler } from '../http/validator.js';

/** A route as Fastify's onRoute hook hands it over: its method, path and schema. */
export interface RouteWithSchema {
  method: string;
  url: string;
  schema?: {
    body?: unknown;
    querystring?: unknown;
    params?: unknown;
    headers?: unknown;
    response?: Record<string, unknown>;
  };
}

const REQUEST_PARTS = ['body', 'querystring', 'params', 'headers'] as const;

/**
 * Compiles every part of every route's schema now, with the compilers the served app uses, and answers
 * what failed ("POST /api/x body: <the compiler's message>"). The app compiles each by its route's first
 * request (http/compile-on-first-use.ts), so a schema that cannot compile would otherwise surface only when
 * someone calls that route: a test over every route finds it first.
 */
export function schemasThatDoNotCompile(routes: readonly RouteWithSchema[]): string[] {
  const compileRequestPart = requestPartCompiler();
  const failures: string[] = [];
  const attempt = (route: RouteWithSchema, part: string, compile: () => unknown) => {
    try {
      compile();
    } catch (error) {
      failures.push(`${route.method} ${route.url} ${part}: ${(error as Error).message}`);
    }
  };
  for (const route of routes) {
    const schema = route.schema ?? {};
    for (const part of REQUEST_PARTS) {
      if (schema[part] !== undefined) attempt(route, part, () => compileRequestPart(schema[part], part));
    }
    for (const [status, response] of Object.entries(schema.response ?? {})) attempt(route, `response ${status}`, () => compileSerializer(response));
  }
  return failures;
}
