import Fastify from 'fastify';
const body = JSON.stringify({ contacts: Array.from({ length: 10 }, (_, i) => ({ id: '00000000-0000-0000-0000-00000000000' + i, firstName: 'Nombre' + i, lastName: 'Apellido' + i, email: `n${i}@example.com`, phone: '+34 600 000 00' + i, company: 'Empresa', tags: ['a', 'b'], createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() })), total: 100000, page: 1, limit: 10 });
const app = Fastify();
app.get('/*', async (req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
