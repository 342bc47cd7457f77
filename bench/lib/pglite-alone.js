// The reference for the embedded database's memory: PGlite alone, as its defaults open it, in one plain
// process (no worker, no socket, nothing of the product), with the two extensions the kit loads
// (packages/kit/src/db/embedded.ts) and created as the first migration creates them. Spawned by
// bench/memory.js with PORT and PGLITE_DIR set; answers GET / once the database is open.
import { createServer } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { watchParent } from '../../packages/kit/dist/parent-watch.js';

const db = await PGlite.create({ dataDir: process.env.PGLITE_DIR, extensions: { pg_trgm, unaccent } });
await db.exec('create extension if not exists pg_trgm; create extension if not exists unaccent;');
const server = createServer((_request, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void db.close().then(() => process.exit(0))));
// Ends with the benchmark that started it, however that ends: closed as on SIGTERM.
watchParent(() => process.kill(process.pid, 'SIGTERM'));
