import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver: records every request, answers `status` (changeable), and tells when n have come. */
export class Receiver {
  readonly requests: Received[] = [];
  status = 204;
  private waiters: { n: number; resolve: () => void }[] = [];
  private server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      this.requests.push({ headers: request.headers, body });
      response.statusCode = this.status;
      response.end();
      this.waiters = this.waiters.filter((w) => (this.requests.length >= w.n ? (w.resolve(), false) : true));
    });
  });

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `n` requests in all have arrived. */
  received(n: number): Promise<void> {
    if (this.requests.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
