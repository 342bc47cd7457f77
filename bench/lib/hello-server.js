// The baseline every API figure is divided by: a bare Fastify hello world on
// the same machine in the same run. Spawned by the benchmarks with PORT set.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
