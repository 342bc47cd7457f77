// Routes compile their validators and serializers by their first request, answer as before, and a schema that cannot compile is still named before anyone calls its route.
import { test } from 'tap';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import Fastify from 'fastify';
import { serializeOnFirstUse, validateOnFirstUse } from '../src/http/compile-on-first-use.js';
import { createSerializerCompiler } from '../src/http/serializer.js';
import { createValidatorCompiler } from '../src/http/validator.js';
import { schemasThatDoNotCompile } from '../src/testing/route-schemas.js';

test('a route compiles its validators and serializer by its first request, and answers as before', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSerializerCompiler(createSerializerCompiler());
  app.post(
    '/items/:id',
    {
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        querystring: Type.Object({ limit: Type.Integer({ default: 20 }) }),
        body: Type.Object({ name: Type.String() }),
        response: { 200: Type.Object({ id: Type.Integer(), limit: Type.Integer(), name: Type.String() }) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const { limit } = request.query as { limit: number };
      const { name } = request.body as { name: string };
      return { id, limit, name, extra: 'not in the schema' };
    },
  );
  await app.ready();

  const ok = await app.inject({ method: 'POST', url: '/items/7', payload: { name: 'Ana' } });
  t.equal(ok.statusCode, 200);
  t.same(ok.json(), { id: 7, limit: 20, name: 'Ana' }, 'params coerced, the default filled in, the answer serialized by its schema');
  const bad = await app.inject({ method: 'POST', url: '/items/7', payload: { name: 123 } });
  t.equal(bad.statusCode, 400, 'a body of the wrong type is refused (bodies are not coerced)');
  t.match(bad.json().message, /body\/name/, "Ajv's errors reach Fastify's answer");
  const again = await app.inject({ method: 'POST', url: '/items/8?limit=5', payload: { name: 'Eva' } });
  t.same(again.json(), { id: 8, limit: 5, name: 'Eva' }, 'the compiled functions are reused');
});

test('nothing is compiled before the first call, and once after it', async (t) => {
  const ajv = new Ajv();
  let compiles = 0;
  const validate = validateOnFirstUse(() => {
    compiles++;
    return ajv.compile({ type: 'integer' });
  });
  let serializers = 0;
  const serialize = serializeOnFirstUse(() => {
    serializers++;
    return (data) => JSON.stringify(data);
  });
  t.equal(compiles + serializers, 0);
  t.equal(validate.schemaEnv, true, 'Fastify passes the parent data to it, as to an Ajv function');
  t.equal(validate('x'), false);
  t.equal(validate.errors?.[0]?.keyword, 'type');
  t.equal(validate(3), true);
  t.equal(validate.errors, null, 'the errors of the last call, as Ajv keeps them');
  t.equal(serialize({ a: 1 }) + serialize([2]), '{"a":1}[2]');
  t.same([compiles, serializers], [1, 1]);
});

test("a schema that cannot compile, which the app would meet only at its route's first request, is named at once", async (t) => {
  const failures = schemasThatDoNotCompile([
    { method: 'POST', url: '/api/bien', schema: { body: Type.Object({ name: Type.String() }), response: { 200: Type.Object({ id: Type.Integer() }) } } },
    { method: 'POST', url: '/api/cuerpo', schema: { body: { type: 'texto' } } },
    { method: 'GET', url: '/api/respuesta', schema: { response: { 200: { type: 'object', properties: { a: { $ref: '#/definitions/falta' } } } } } },
  ]);
  t.equal(failures.length, 2, failures.join('\n'));
  t.match(failures[0], /^POST \/api\/cuerpo body: /);
  t.match(failures[1], /^GET \/api\/respuesta response 200: /);
});
