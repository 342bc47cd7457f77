import { Agent, request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  code?: string;
  message?: string;
  body?: Record<string, unknown>;
}

/**
 * `method path` sent exactly as written (dot-segments, escapes and fragments reach the server untouched, as
 * inject and URL strings would not leave them). A JSON body is read; anything else (a stream, the web app)
 * is left as soon as it answers. Without `payload`, a write sends `{}`.
 */
export function rawRequest(agent: Agent, to: string, method: string, path: string, authorization: string, payload?: object): Promise<RawAnswer> {
  const { hostname, port } = new URL(to);
  const body = payload ? JSON.stringify(payload) : method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : '{}';
  const headers = { authorization, ...(body ? { 'content-type': 'application/json' } : {}) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent, hostname, port, method, path, headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (!String(res.headers['content-type']).startsWith('application/json')) {
        res.destroy();
        resolve({ status });
        return;
      }
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const parsed = JSON.parse(text || '{}') as Record<string, unknown>;
        resolve({ status, code: parsed.code as string | undefined, message: parsed.message as string | undefined, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
