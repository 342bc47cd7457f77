import fc from 'fast-check';

/** The JSON Schema keywords TypeBox emits that the arbitraries understand. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** The classics that break parsers, drivers and databases. */
export const NASTY_STRINGS = [
  'a\u0000b',
  '\u0000',
  'x\u001b[31m',
  '\ud800',
  'a\udfffb',
  '💥'.repeat(3),
  "' or 1=1 --",
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  '\u202e',
  ' ',
  '',
];

const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }));
const nastyNumber = fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1.5, -0.0001);

/** A value the schema accepts (as far as these keywords tell), for filling the slots a case does not attack. */
export function validArbitrary(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => validArbitrary(s, depth)));
  if (schema.allOf) return objectArbitrary(intersection(schema.allOf), depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? 0), max: Math.floor(Math.min(schema.maximum ?? 1000, 1_000_000)) });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1e6), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validArbitrary(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
      return objectArbitrary(schema, depth);
    default:
      return fc.constant('x');
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'uri') return fc.constant('https://ejemplo.es/a');
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
    } catch {
      return fc.constant('x');
    }
  }
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 30, 30));
  return fc.string({ minLength: Math.max(min, 2), maxLength: Math.max(max, 2) }).map((s) => s.replace(/\s/g, 'a'));
}

/** An intersection of object schemas (TypeBox's Intersect) as the one object it describes. */
function intersection(parts: JsonSchema[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => part.required ?? []),
  };
}

function objectArbitrary(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(properties)) record[key] = validArbitrary(value, depth + 1);
  return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
}

/**
 * A value built to hurt: the schema's shape with one or more slots replaced by
 * hostile input (NUL and control characters, lone surrogates, numbers out of
 * range, arrays for scalars, `__proto__` keys, deep nesting, a 1 MB string).
 */
export function hostileArbitrary(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, depth);
  const attacks: fc.Arbitrary<unknown>[] = [
    nastyString,
    nastyNumber,
    fc.constant(null),
    fc.constant([]),
    fc.constant({}),
    fc.constant(true),
    fc.array(nastyString, { maxLength: 3 }),
    fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')),
    fc.constant(deep(200)),
  ];
  if (depth === 0) attacks.push(fc.constant('x'.repeat(1_000_000)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' && schema.properties && depth < 2) {
    const props = Object.entries(schema.properties);
    const mutated = fc
      .tuple(valid as fc.Arbitrary<Record<string, unknown>>, fc.constantFrom(...props.map(([k]) => k)), fc.constant(null))
      .chain(([base, key]) => hostileArbitrary(schema.properties![key]!, depth + 1).map((bad) => ({ ...base, [key]: bad })));
    return fc.oneof({ weight: 4, arbitrary: mutated }, { weight: 1, arbitrary: fc.oneof(...attacks) }, { weight: 1, arbitrary: valid });
  }
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...attacks) }, { weight: 1, arbitrary: valid });
}

function deep(levels: number): unknown {
  let value: unknown = 'fondo';
  for (let i = 0; i < levels; i++) value = { a: [value] };
  return value;
}
