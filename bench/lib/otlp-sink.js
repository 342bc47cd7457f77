// A local OpenTelemetry collector for the overhead bench: accepts OTLP/HTTP exports (any protocol) and
// discards them, answering as a collector does, so the app pays the whole cost of exporting its spans.
import { createServer } from 'node:http';

export async function startOtlpSink() {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') exports++;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    /** What arrived so far: the bench checks spans were in fact exported. */
    received: () => ({ exports, bytes }),
    stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}
