import Fastify from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { Pool } from 'undici';
const kind = process.env.KIND; const up = process.env.UPSTREAM;
const app = Fastify();
if (kind === 'reply-from') {
  await app.register(httpProxy, { upstream: up, prefix: '/api/contacts', rewritePrefix: '/contacts', disableRequestLogging: true });
} else {
  const pool = new Pool(up, { connections: 128, pipelining: 1 });
  app.get('/api/contacts', async (request, reply) => {
    const headers = { ...request.headers }; delete headers.host; delete headers.connection;
    const res = await pool.request({ path: request.url.slice(4), method: 'GET', headers });
    delete res.headers['transfer-encoding']; delete res.headers.connection; delete res.headers['keep-alive'];
    reply.code(res.statusCode).headers(res.headers);
    if (kind === 'buffer') return reply.send(Buffer.from(await res.body.arrayBuffer()));
    return reply.send(res.body);
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
