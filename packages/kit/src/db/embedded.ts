import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  /** The whole data directory as an uncompressed tarball. */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (Postgres in WASM) behind a loopback socket so the rest of
 * the code talks to it with the same driver as a real server. The socket
 * accepts one connection: callers must share a single `max: 1` client.
 * `dataDir` = 'memory://' keeps everything in memory (tests); `template`, a
 * dump of an already-migrated database, skips initdb and the migrations.
 */
export async function startEmbeddedPostgres(dataDir: string, template?: Blob): Promise<EmbeddedPostgres> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir, extensions: { pg_trgm, unaccent }, ...(template ? { loadDataDir: template } : {}) });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    dump: () => db.dumpDataDir('none'),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
