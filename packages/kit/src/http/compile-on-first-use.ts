import type { ValidateFunction } from 'ajv';

/*
 * Fastify compiles every route's request validators and response serializers when the route registers.
 * `npm start` registers every service's routes in one process: in its first 25 s it allocated 268 MB, Ajv's
 * compiles half of it and fast-json-stringify's another 34 MB, all garbage right after, which the heap then
 * kept resident until V8 shrank it a minute later (bench/memory.js: 60 MB of the idle figure at 30 s). Most
 * routes of an install are never called (a feature not configured), so each is compiled by its first
 * request instead: the same compiler, the same schema, the same function from then on.
 */

/** Ajv's second argument: where the value sits in its parent (the request, for Fastify). */
type DataValidationCxt = Parameters<ValidateFunction>[1];

/** A validator as Fastify calls it: with the request as parent data when the function has `schemaEnv`. */
export interface FirstUseValidator {
  (data: unknown, context?: DataValidationCxt): boolean | Promise<unknown>;
  errors?: ValidateFunction['errors'];
  schemaEnv: true;
}

/** `compile()` run by the first validation; each call then runs Ajv's function and exposes its `errors`. */
export function validateOnFirstUse(compile: () => ValidateFunction): FirstUseValidator {
  let validate: ValidateFunction | undefined;
  const check: FirstUseValidator = Object.assign(
    (data: unknown, context?: DataValidationCxt) => {
      validate ??= compile();
      const valid = validate(data, context);
      check.errors = validate.errors;
      return valid;
    },
    // Fastify hands the request over as parent data (so Ajv can replace a coerced root value) only to a
    // function that has `schemaEnv`, as every Ajv function does: this one must have it before it compiled.
    { schemaEnv: true as const },
  );
  return check;
}

/** `compile()` run by the first answer serialized with it. */
export function serializeOnFirstUse(compile: () => (data: unknown) => string): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compile())(data);
}
