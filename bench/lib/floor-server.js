// The floor the distributed list is divided by: what GET /api/contacts costs
// with no hop at all. One process: Fastify, a JWT check (HS256, issuer,
// audience, the claims the house requires), and the list's own SQL (the
// contacts repository's page query) through postgres.js with a pool of 10, on
// the same PostgreSQL. Spawned by bench/contacts-list.js with PORT,
// DATABASE_URL and the app's JWT_SECRET set.
import Fastify from 'fastify';
import { createVerifier } from 'fast-jwt';
import postgres from 'postgres';
import { ContactsRepository, DEFAULT_ORDER } from '../../services/contacts/dist/domain/contacts.repository.js';
import { toContact } from '../../services/contacts/dist/domain/contact.js';

const sql = postgres(process.env.DATABASE_URL, { max: 10, transform: postgres.camel, onnotice: () => {} });
const contacts = new ContactsRepository(sql);
const verify = createVerifier({
  key: process.env.JWT_SECRET,
  algorithms: ['HS256'],
  allowedIss: process.env.JWT_ISSUER ?? 'mi-asistente',
  allowedAud: process.env.JWT_AUDIENCE ?? 'mi-asistente-api',
  requiredClaims: ['sub', 'jti', 'exp', 'iat', 'iss', 'aud'],
  cache: 10_000,
});

const app = Fastify();
app.get('/api/contacts', async (request, reply) => {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  let userId;
  try {
    if (!/^bearer$/i.test(scheme ?? '') || !token) throw new Error('no token');
    userId = verify(token).sub;
  } catch {
    return reply.code(401).send({ statusCode: 401, code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Sesión no válida' });
  }
  const page = Number(request.query.page ?? 1);
  const limit = Number(request.query.limit ?? 10);
  const { rows, total } = await contacts.page(userId, {}, DEFAULT_ORDER, limit, (page - 1) * limit);
  return { contacts: rows.map(toContact), total, page, limit };
});
app.get('/', async () => ({ floor: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
