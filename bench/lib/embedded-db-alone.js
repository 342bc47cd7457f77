// The product's embedded database alone: the kit's startEmbeddedPostgres (PGlite in its worker thread,
// behind the loopback socket, with the kit's settings), nothing else of the product. Beside PGlite alone
// it shows what the kit's settings change; beside npm start, what the rest of the process costs.
// Spawned by bench/memory.js with PORT and PGLITE_DIR set; answers GET / once the database is open.
import { createServer } from 'node:http';
import { startEmbeddedPostgres } from '../../packages/kit/dist/db/embedded.js';
import { watchParent } from '../../packages/kit/dist/parent-watch.js';

const db = await startEmbeddedPostgres(process.env.PGLITE_DIR);
const server = createServer((_request, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void db.stop().then(() => process.exit(0))));
// Ends with the benchmark that started it, however that ends: closed as on SIGTERM.
watchParent(() => process.kill(process.pid, 'SIGTERM'));
