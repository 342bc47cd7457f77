// The baseline every API figure is divided by: a bare Fastify hello world on
// the same machine in the same run. Spawned by the benchmarks with PORT set.
import Fastify from 'fastify';
import { watchParent } from '../../packages/kit/dist/parent-watch.js';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// Ends with the benchmark that started it, however that ends: a crashed run once left a floor spending a
// tenth of a core for 90 minutes, under every run after it.
watchParent(() => process.exit(0));
