import * as contracts from '@asistente/contracts';
import { leanSerializationSchema } from '@asistente/kit';
import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import t from 'tap';
import { validArbitrary, type JsonSchema } from './reliability/schema-arbitrary.js';

type Schema = Parameters<typeof fastJson>[0];
const hasUnion = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && ('anyOf' in schema || 'oneOf' in schema || Object.values(schema).some(hasUnion));
const schemas = (Object.entries(contracts) as [string, unknown][]).filter(
  (entry): entry is [string, Schema] => typeof entry[1] === 'object' && entry[1] !== null && 'type' in entry[1] && hasUnion(entry[1]),
);

t.test('every contract with a union serializes to the same JSON as the lean schema the services use', async (t) => {
  t.ok(schemas.length > 20, `${schemas.length} contracts with unions`);
  for (const [name, schema] of schemas) {
    const original = fastJson(schema);
    const lean = fastJson(leanSerializationSchema(schema));
    fc.assert(
      fc.property(validArbitrary(schema as unknown as JsonSchema), (value) => original(value) === lean(value)),
      { numRuns: 200, seed: 2026 },
    );
    t.pass(name);
  }
});

t.test('what the lean schema changes, and what it leaves', async (t) => {
  const nullableDate = { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] };
  t.same(leanSerializationSchema(nullableDate), { type: 'string', format: 'date-time', nullable: true });
  t.same(leanSerializationSchema({ anyOf: [{ type: 'null' }, { type: 'object', properties: { a: { type: 'integer' } } }] }), {
    type: 'object',
    properties: { a: { type: 'integer' } },
    nullable: true,
  });
  t.same(leanSerializationSchema({ anyOf: [{ const: 'incoming', type: 'string' }, { const: 'outgoing', type: 'string' }] }), {
    type: 'string',
    enum: ['incoming', 'outgoing'],
  });
  t.same(leanSerializationSchema({ type: 'array', items: nullableDate }), { type: 'array', items: { type: 'string', format: 'date-time', nullable: true } });
  const mixed = { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] };
  t.same(leanSerializationSchema(mixed), mixed, 'a union of several value types is kept');
  const nested = { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] };
  t.same(leanSerializationSchema(nested), nested, 'a value that is itself a union is kept');
  t.same(leanSerializationSchema({ anyOf: [{ const: 1 }, { const: 2 }] }), { anyOf: [{ const: 1 }, { const: 2 }] }, 'numeric constants are kept');
});
