import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestPlatform, type Teardown } from '@asistente/kit/testing';
import { buildGateway } from '../../src/gateway.js';
import { ROUTES } from '../../src/routing-table.js';

/**
 * The distributed gateway in front of one upstream that stands for every service, answers 200 `{"ok":true}`
 * and keeps the headers of each request it received: for tests of what the gateway adds to a proxied
 * request and what it never passes on.
 */
export async function gatewayBeforeRecorder(t: Teardown, jwtSecret: string) {
  const seen: IncomingHttpHeaders[] = [];
  const upstream = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const platform = await createTestPlatform(t, { config: { ...Object.fromEntries(ROUTES.map((r) => [r.urlVariable, url])), JWT_SECRET: jwtSecret } });
  const gateway = await buildGateway(platform, 'distributed');
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => gateway.close());
  return { gateway, base, seen };
}
