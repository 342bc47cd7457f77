import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';

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
 * instead of silently becoming "123".
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = build({ coerceTypes: false });
  const coercing = build({ coerceTypes: true });
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object) as FastifyValidationResult;
}
