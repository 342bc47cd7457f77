import { connect as netConnect, type Socket } from 'node:net';

/**
 * postgres.js 3.4.9 reserves a transaction's connection only when writing its BEGIN neither hits socket
 * back-pressure nor fills the pipeline (porsager/postgres#1189). On the embedded database's single
 * connection, which every caller shares and PGlite drains slowly under load, that happens: `sql.begin`
 * then has no connection and the next query crashes the process. This socket never reports back-pressure
 * (Node keeps buffering, nothing is lost; the callers' own concurrency bounds what waits), and the caller
 * lifts the pipeline limit, so BEGIN always reserves its connection.
 */
export function unblockedSocket(url: string): () => Promise<Socket> {
  const { hostname, port } = new URL(url);
  return () =>
    new Promise((resolve, reject) => {
      const socket = netConnect(Number(port || 5432), hostname);
      const write = socket.write.bind(socket) as (chunk: Uint8Array | string, callback?: (error?: Error | null) => void) => boolean;
      socket.write = ((chunk: Uint8Array | string, callback?: (error?: Error | null) => void) => {
        write(chunk, callback);
        return true;
      }) as typeof socket.write;
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
}

/** With the socket above: no pipeline boundary for a BEGIN to fall on. */
export const UNLIMITED_PIPELINE = 1_000_000;
