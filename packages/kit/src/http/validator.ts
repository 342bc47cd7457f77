import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import { validateOnFirstUse } from './compile-on-first-use.js';

// ajv-formats ships CommonJS; under NodeNext its function sits on `.default`.
const addFormats = addFormatsModule.default;

function build(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, verbose: true, ...options });
  addFormats(ajv);
  ajv.addKeyword('messages');
  return ajv;
}

/**
 * Query strings and path params arrive as text and are coerced to the
 * declared types; JSON bodies are not, so `{ "firstName": 123 }` is a 400
 * instead of silently becoming "123". Each route's validator is compiled by its first request
 * (compile-on-first-use.ts says why).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const compile = requestPartCompiler();
  return ({ schema, httpPart }) => validateOnFirstUse(() => compile(schema, httpPart)) as FastifyValidationResult;
}

/** Ajv's compile of one request part's schema, at once: strict for a JSON body, coercing for the parts that arrive as text. */
export function requestPartCompiler(): (schema: unknown, httpPart: string | undefined) => ValidateFunction {
  const strict = build({ coerceTypes: false });
  const coercing = build({ coerceTypes: true });
  return (schema, httpPart) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
