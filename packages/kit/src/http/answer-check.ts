import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validationMessage, type ValidationIssue } from './validation-messages.js';

// ajv-formats ships CommonJS; under NodeNext its function sits on `.default`.
const addFormats = addFormatsModule.default;

/**
 * One Ajv for every sibling answer, with the formats (uuid, date-time) and the `messages` keyword the contracts
 * use, so an answer is checked by the same rules the sibling's route declares. Never coerces, never fills
 * defaults: what is checked is what came back.
 */
const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);
ajv.addKeyword('messages');

/** Compiled once per schema object and Ajv (the contracts' schemas are module constants). */
function compiledOnce(engine: Ajv, cache: WeakMap<TSchema, ValidateFunction>, schema: TSchema): ValidateFunction {
  let check = cache.get(schema);
  if (!check) {
    check = engine.compile(schema);
    cache.set(schema, check);
  }
  return check;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Why `value` is not of `schema` (the first mismatch, its path and rule, no values), or undefined when it is. */
export function answerProblem(schema: TSchema, value: unknown): string | undefined {
  const check = compiledOnce(ajv, compiled, schema);
  if (check(value)) return undefined;
  const [error] = check.errors ?? [];
  return `${error?.instancePath || '/'} ${error?.message ?? 'does not match'}`;
}

/** Bodies are checked with the issue's schema at hand, so the refusal can be the route's own Spanish sentence. */
const bodies = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false, verbose: true });
addFormats(bodies);
bodies.addKeyword('messages');
const compiledBodies = new WeakMap<TSchema, ValidateFunction>();

/** What the sibling's route would answer for this body (its first problem, in its Spanish), or undefined when it fits. */
export function bodyRefusal(schema: TSchema, value: unknown): string | undefined {
  const check = compiledOnce(bodies, compiledBodies, schema);
  if (check(value)) return undefined;
  return validationMessage((check.errors ?? []) as ValidationIssue[], 'body');
}
