import { mkdir } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { initialiseDataDir, isEmptyDir } from './embedded-initdb.js';
import { compileWasmOnce, POSTGRES_SETTINGS } from './embedded-settings.js';

export interface EmbeddedPostgres {
  url: string;
  /** The whole data directory as an uncompressed tarball. */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

/** What the worker answers: its address once listening, a dump, or that it has stopped. */
type WorkerMessage = { kind: 'ready'; url: string } | { kind: 'dump'; data: ArrayBuffer } | { kind: 'stopped' };

/**
 * The worker's body, plain JavaScript run with `eval` so that it loads the same from the sources (tsx does
 * not hook worker threads) and from the build. Its modules come as URLs resolved here, in the kit's own
 * package, so they are the same copies whatever the working directory.
 */
const WORKER_BODY = `
const { parentPort, workerData } = require('node:worker_threads');
// PGlite is one backend session shared by every socket connection. The socket's queue interleaves the
// connections' messages one by one and only keeps an explicit transaction whole; a second client's message
// landing inside another's extended-protocol sequence (Parse, Bind, Execute… up to Sync) would replace its
// unnamed portal. This queue also keeps each sequence whole: after a Parse/Bind/Describe/Execute/Flush/Close
// it serves the same connection until its Sync (a simple Query is whole by itself).
const OPENS_SEQUENCE = new Set([0x50, 0x42, 0x44, 0x45, 0x48, 0x43]);
function keepSequencesWhole(queue, db) {
  let open = false;
  queue.processQueue = async function () {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    while (this.queue.length > 0) {
      const pinned = this.lastHandlerId !== null && (open || db.isInTransaction());
      const index = pinned ? this.queue.findIndex((item) => item.handlerId === this.lastHandlerId) : 0;
      if (index === -1) break;
      const [item] = this.queue.splice(index, 1);
      try {
        await db.runExclusive(() => db.execProtocolRawStream(item.message, { onRawData: (data) => item.onData(data) }));
      } catch (error) {
        item.reject(error);
        continue;
      }
      open = OPENS_SEQUENCE.has(item.message[0]);
      this.lastHandlerId = item.handlerId;
      item.resolve();
    }
    this.processing = false;
  };
  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  // A connection gone in the middle of a sequence must not hold the others back.
  queue.clearTransactionIfNeeded = async (handlerId) => {
    if (queue.lastHandlerId === handlerId) open = false;
    await clearTransaction(handlerId);
    await queue.processQueue();
  };
}
(async () => {
  const [{ PGlite }, { pg_trgm }, { unaccent }, { PGLiteSocketServer }] = await Promise.all(workerData.modules.map((url) => import(url)));
  const template = workerData.template ? new Blob([workerData.template]) : undefined;
  const db = await PGlite.create({
    dataDir: workerData.dataDir,
    extensions: { pg_trgm, unaccent },
    startParams: [...PGlite.defaultStartParams, ...workerData.settings],
    ...(template ? { loadDataDir: template } : {}),
  });
  // Three: the migrations' connection may still be closing here when the shared client connects (the
  // socket queue runs one query at a time and keeps a transaction to its own connection), and an operator's
  // backup (asistente admin backup) may connect beside the running server.
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 3 });
  keepSequencesWhole(server.queryQueue, db);
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  parentPort.on('message', async (message) => {
    if (message === 'dump') {
      const data = await (await db.dumpDataDir('none')).arrayBuffer();
      parentPort.postMessage({ kind: 'dump', data }, [data]);
    } else if (message === 'stop') {
      await server.stop();
      await db.close();
      parentPort.postMessage({ kind: 'stopped' });
    }
  });
  parentPort.postMessage({ kind: 'ready', url: 'postgres://postgres@' + host + ':' + port + '/postgres' });
})();
`;

/** PGlite, its two extensions (the first three: all initdb needs) and the socket server. */
const MODULES = ['@electric-sql/pglite', '@electric-sql/pglite/contrib/pg_trgm', '@electric-sql/pglite/contrib/unaccent', '@electric-sql/pglite-socket'].map(
  (specifier) => import.meta.resolve(specifier),
);

/**
 * Starts PGlite (Postgres in WASM) in a worker thread behind a loopback socket, so the rest of the code
 * talks to it with the same driver as a real server, and the database's work (all of it synchronous WASM)
 * runs beside the process's own instead of stalling its event loop. PGlite is one session: callers must
 * share a single `max: 1` client. `dataDir` = 'memory://' keeps everything in memory (tests);
 * `template`, a dump of an already-migrated database, skips initdb and the migrations.
 */
export async function startEmbeddedPostgres(dataDir: string, template?: Blob): Promise<EmbeddedPostgres> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const templateData = template ? await template.arrayBuffer() : undefined;
  compileWasmOnce();
  // A new data directory is made by a process of its own (see initialiseDataDir); one that holds something
  // already, an in-memory one or a template is opened by the worker as before.
  if (!dataDir.startsWith('memory://') && !templateData && (await isEmptyDir(dataDir))) await initialiseDataDir(dataDir, MODULES.slice(0, 3), POSTGRES_SETTINGS);
  const worker = new Worker(WORKER_BODY, {
    eval: true,
    workerData: { dataDir, modules: MODULES, template: templateData, settings: POSTGRES_SETTINGS },
    ...(templateData ? { transferList: [templateData] } : {}),
  });
  let stopping: Promise<void> | undefined;
  /** The worker's next answer of this kind; an error or an exit before it fails the wait instead of hanging it. */
  const next = (kind: WorkerMessage['kind']) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const onExit = (code: number) => done(new Error(`The embedded database stopped (worker exit code ${code})`));
      const done = (error: Error | undefined, message?: WorkerMessage) => {
        worker.off('message', onMessage).off('error', done).off('exit', onExit);
        if (error) reject(error);
        else resolve(message!);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.kind === kind) done(undefined, message);
      };
      worker.on('message', onMessage).once('error', done).once('exit', onExit);
    });
  const ready = (await next('ready')) as Extract<WorkerMessage, { kind: 'ready' }>;
  // Past start-up, a database that dies takes the process with it, as it did in the main thread: the
  // launcher restarts it rather than serving every request a connection error.
  worker.on('error', (error) => {
    if (!stopping) throw error;
  });
  worker.on('exit', (code) => {
    if (!stopping) throw new Error(`The embedded database stopped (worker exit code ${code})`);
  });
  return {
    url: ready.url,
    async dump() {
      const answer = next('dump');
      worker.postMessage('dump');
      return new Blob([((await answer) as Extract<WorkerMessage, { kind: 'dump' }>).data]);
    },
    stop() {
      stopping ??= (async () => {
        const answer = next('stopped');
        worker.postMessage('stop');
        await answer;
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
