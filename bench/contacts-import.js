// `npm run bench:import`: 1M CSV rows imported through POST /api/contacts/import,
// side by side with `psql \copy` of the same file into the same database.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/contacts-import.js [--rows 1000000] [--distributed]
// DATABASE_URL names a server: the benchmark creates a database of its own there and drops it.
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../packages/kit/dist/testing/index.js';
import { registerUser, startApp } from './lib/app.js';
import { CSV_HEADER, csvRow } from './lib/csv.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    distributed: { type: 'boolean', default: process.env.BENCH_DISTRIBUTED === '1' },
  },
});
const ROWS = Number(args.rows);
// One upload of the whole file: raise the import's upload limit (64 MiB by default) to fit it.
process.env.CONTACTS_IMPORT_MAX_BYTES ??= String(512 * 1024 * 1024);
/** From the issue: the API import at least half the rate of \copy. */
const TARGET_RATIO = 0.5;

if (!process.env.DATABASE_URL || (args.distributed && !process.env.NATS_URL)) {
  console.error('DATABASE_URL is required (a Postgres server the benchmark creates its database on); --distributed also needs NATS_URL');
  process.exit(1);
}

async function writeCsv(file) {
  const out = createWriteStream(file);
  out.write(CSV_HEADER);
  let chunk = '';
  for (let i = 1; i <= ROWS; i++) {
    chunk += csvRow(i);
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** Streams the file as the request body; resolves with the seconds until the report arrived. */
function importThroughApi(baseUrl, authorization, file) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/contacts/import`, { method: 'POST', headers: { authorization, 'content-type': 'text/csv' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => {
        const report = JSON.parse(body);
        if (res.statusCode !== 200 || report.created !== ROWS) reject(new Error(`import answered ${res.statusCode}: ${body.slice(0, 300)}`));
        else resolve((performance.now() - started) / 1000);
      });
    });
    req.on('error', reject);
    pipeline(createReadStream(file), req).catch(reject);
  });
}

function psql(url, command) {
  const started = performance.now();
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - started) / 1000;
}

// The same columns, generated search column and indexes as contacts.contacts, minus the tags
// GIN index: \copy cannot split "a;b" into text[], so tags stay one text cell there.
const EQUIVALENT_TABLE = `
  create schema bench;
  create table bench.contacts (like contacts.contacts including defaults including generated including indexes);
  do $$ declare i regclass; begin
    select indexrelid::regclass into i from pg_index where indrelid = 'bench.contacts'::regclass and pg_get_indexdef(indexrelid) like '%(tags)%';
    execute format('drop index %s', i);
  end $$;
  alter table bench.contacts alter column tags drop default, alter column tags drop not null, alter column tags type text using null,
    alter column user_id set default gen_random_uuid();
  create table bench.bare (first_name text, last_name text, email text, phone text, company text, tags text);`;
const COLUMNS = '(first_name, last_name, email, phone, company, tags)';

const dir = mkdtempSync(path.join(tmpdir(), 'asistente-import-'));
const file = path.join(dir, 'contacts.csv');
const database = await createTestDatabase(process.env.DATABASE_URL);
const app = await startApp({ distributed: args.distributed, databaseUrl: database.url });
try {
  await writeCsv(file);
  const megabytes = statSync(file).size / 1e6;
  console.log(`\n${ROWS.toLocaleString('en')} rows, ${megabytes.toFixed(0)} MB CSV; ${args.distributed ? 'distributed' : 'one process'} on Postgres`);
  const authorization = await registerUser(app.url);
  const api = await importThroughApi(app.url, authorization, file);

  psql(database.url, EQUIVALENT_TABLE);
  const copyEquivalent = psql(database.url, `\\copy bench.contacts ${COLUMNS} from '${file}' with (format csv, header true)`);
  const copyBare = psql(database.url, `\\copy bench.bare ${COLUMNS} from '${file}' with (format csv, header true)`);

  const row = (title, seconds) => ({
    load: title,
    seconds: seconds.toFixed(1),
    'rows/s': Math.round(ROWS / seconds).toLocaleString('en'),
    'API rate ÷ this': `${(seconds / api).toFixed(2)}x`,
  });
  console.log();
  printTable([
    row('POST /api/contacts/import (parse, validate, stage, merge)', api),
    row('psql \\copy into an equivalent table (same indexes)', copyEquivalent),
    row('psql \\copy into a bare table (no index)', copyBare),
  ]);
  const ratio = copyEquivalent / api;
  console.log(`\nimport at ${ratio.toFixed(2)}x the \\copy rate into the equivalent table (target >= ${TARGET_RATIO}x): ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`);
} finally {
  await app.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
