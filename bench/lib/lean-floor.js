// The leaner of the hop's two floors, as an outside check builds one: Fastify, a cached JWT check (HS256 and
// the signature only), and the first page's SQL as the contacts repository sends it, through postgres.js
// (pool of 10, no column transform), answered with Fastify's default JSON. It does less per request than the
// house floor (floor-server.js): no required-claims check, no camelCase transform of every column, no
// mapping to the contract's shape, no query validation, no response schema. bench/contacts-list.js divides
// the distributed list by the faster of the two. Spawned with PORT, DATABASE_URL and JWT_SECRET.
import Fastify from 'fastify';
import { createVerifier } from 'fast-jwt';
import postgres from 'postgres';
import { tokenSubject } from './floor-token.js';
import { watchParent } from '../../packages/kit/dist/parent-watch.js';

const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
const verify = createVerifier({ key: process.env.JWT_SECRET, algorithms: ['HS256'], cache: 10_000 });

const app = Fastify();
app.get('/api/contacts', async (request, reply) => {
  const userId = tokenSubject(request, reply, verify);
  if (userId === undefined) return reply;
  const page = Number(request.query.page ?? 1);
  const limit = Number(request.query.limit ?? 10);
  const rows = await sql`
    select id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes, created_at, updated_at,
      (select total from contacts.owner_counts where user_id = ${userId}) as total
    from contacts.contacts
    where user_id = ${userId}
    order by created_at desc, id desc
    limit ${limit} offset ${(page - 1) * limit}`;
  return { contacts: rows, total: Number(rows[0]?.total ?? 0), page, limit };
});
app.get('/', async () => ({ floor: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// Ends with the benchmark that started it, however that ends: a crashed run once left a floor spending a
// tenth of a core for 90 minutes, under every run after it.
watchParent(() => process.exit(0));
