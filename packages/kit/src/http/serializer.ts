import fastJson from 'fast-json-stringify';
import { serializeOnFirstUse } from './compile-on-first-use.js';

type Schema = Record<string, unknown>;

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'if', '$ref'] as const;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNull = (schema: Schema) => schema.type === 'null';
const plain = (schema: Schema) => COMBINATORS.every((key) => !(key in schema));

/**
 * A response schema as fast-json-stringify serializes it fastest, same JSON out. A union it meets runs an
 * Ajv validation of every branch on every value to pick one (a `date-time` string's format check, each
 * time); the contracts' unions are mostly "a value or null" and "one of these words", which need none:
 * `X | null` becomes X marked nullable, a union of string constants a string. The contracts keep their
 * unions: requests are still validated against them.
 */
export function leanSerializationSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item: unknown) => leanSerializationSchema(item)) as T;
  if (!isSchema(schema)) return schema;
  const lean: Schema = {};
  for (const [key, value] of Object.entries(schema)) lean[key] = leanSerializationSchema(value);
  const union = lean.anyOf ?? lean.oneOf;
  if (!Array.isArray(union) || !union.every(isSchema)) return lean as T;
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = lean;
  const values = union.filter((branch) => !isNull(branch));
  if (values.length === 1 && union.length === 2 && plain(values[0]!)) return { ...rest, ...values[0], nullable: true } as T;
  if (values.length === union.length && values.every((branch) => typeof branch.const === 'string')) {
    return { ...rest, type: 'string', enum: values.map((branch) => branch.const) } as T;
  }
  return lean as T;
}

/**
 * Fastify's serializer compiler over `leanSerializationSchema` (the house schemas are inline: no shared refs),
 * compiled by the first answer of its route and status (compile-on-first-use.ts says why).
 */
export function createSerializerCompiler() {
  return ({ schema }: { schema: unknown }) => serializeOnFirstUse(() => compileSerializer(schema));
}

/** fast-json-stringify's compile of one response schema, at once. */
export function compileSerializer(schema: unknown): (data: unknown) => string {
  return fastJson(leanSerializationSchema(schema) as Parameters<typeof fastJson>[0]);
}
