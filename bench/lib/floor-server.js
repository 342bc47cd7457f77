// The house floor: what GET /api/contacts costs the house's own list handler with no hop at all. One
// process: Fastify with the house's validator and serializer compilers, a JWT check (HS256, issuer,
// audience, the claims the house requires, verified tokens cached), the contract's query schema, the
// contacts service's own `list` (the repository's page query through postgres.js, pool of 10, the
// contract's shape) and the contract's response schema, on the same PostgreSQL. lean-floor.js is the
// leaner floor an outside check builds. Spawned by bench/contacts-list.js with PORT, DATABASE_URL and the
// app's JWT_SECRET set.
import Fastify from 'fastify';
import { createVerifier } from 'fast-jwt';
import postgres from 'postgres';
import { tokenSubject } from './floor-token.js';
import { ContactList, ContactListQuery } from '../../packages/contracts/dist/index.js';
import { createSerializerCompiler } from '../../packages/kit/dist/http/serializer.js';
import { createValidatorCompiler } from '../../packages/kit/dist/http/validator.js';
import { ContactsRepository } from '../../services/contacts/dist/domain/contacts.repository.js';
import { ContactsService } from '../../services/contacts/dist/domain/contacts.service.js';
import { watchParent } from '../../packages/kit/dist/parent-watch.js';

const sql = postgres(process.env.DATABASE_URL, { max: 10, transform: postgres.camel, onnotice: () => {} });
// The list reads; the outbox is only for writes.
const contacts = new ContactsService(sql, new ContactsRepository(sql), undefined);
const verify = createVerifier({
  key: process.env.JWT_SECRET,
  algorithms: ['HS256'],
  allowedIss: process.env.JWT_ISSUER ?? 'mi-asistente',
  allowedAud: process.env.JWT_AUDIENCE ?? 'mi-asistente-api',
  requiredClaims: ['sub', 'jti', 'exp', 'iat', 'iss', 'aud'],
  cache: 10_000,
});

const app = Fastify();
app.setValidatorCompiler(createValidatorCompiler());
app.setSerializerCompiler(createSerializerCompiler());
app.get('/api/contacts', { schema: { querystring: ContactListQuery, response: { 200: ContactList } } }, async (request, reply) => {
  const userId = tokenSubject(request, reply, verify);
  if (userId === undefined) return reply;
  return contacts.list(userId, request.query);
});
app.get('/', async () => ({ floor: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// Ends with the benchmark that started it, however that ends: a crashed run once left a floor spending a
// tenth of a core for 90 minutes, under every run after it.
watchParent(() => process.exit(0));
