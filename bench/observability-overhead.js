// `npm run bench:observability` (issue 23, item 4): the first page of the contacts list with operations'
// instruments on (METRICS_PORT set and /metrics scraped every second; every request traced and exported
// over OTLP to a local collector that discards) against the same app without them, in the same run.
//   node bench/observability-overhead.js [--rows 20000] [--duration 10] [--connections 50] [--rounds 2] [--instruments both|metrics|traces]
// `--instruments` measures one of the two alone, to see which costs what (the figure is `both`).
// Both embedded apps run side by side, each on its own data, and are loaded at the same time: on a busy
// machine whatever else runs slows both alike, so their ratio is the instruments' cost (runs one after
// the other differed by more than that here). The ratio given is the median over the rounds.
import { parseArgs } from 'node:util';
import { freePort, importContacts, registerUser, startApp } from './lib/app.js';
import { measure } from './lib/load.js';
import { printTable } from './lib/table.js';
import { startOtlpSink } from './lib/otlp-sink.js';
import { median } from './lib/median.js';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    instruments: { type: 'string', default: 'both' },
  },
});
const ROWS = Number(args.rows);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const INSTRUMENTS = args.instruments;
if (!['both', 'metrics', 'traces'].includes(INSTRUMENTS)) throw new Error('--instruments is both, metrics or traces');
const METRICS_ON = INSTRUMENTS !== 'traces';
const TRACES_ON = INSTRUMENTS !== 'metrics';
const LABEL = { both: 'metrics scraped + every request traced', metrics: 'metrics scraped (no traces)', traces: 'every request traced (no metrics)' }[INSTRUMENTS];
/** From the issue: with metrics and traces the list keeps at least this share of its throughput. */
const TARGET = 0.9;
const FIRST_PAGE = '/api/contacts?page=1&limit=10';

/** Prometheus' part while a run lasts: GET /metrics every second, each answer checked. */
function scrapeEverySecond(metricsUrl) {
  let scrapes = 0;
  let failures = 0;
  const timer = setInterval(() => {
    fetch(metricsUrl)
      .then(async (response) => {
        if (response.ok && (await response.text()).includes('# TYPE')) scrapes++;
        else failures++;
      })
      .catch(() => failures++);
  }, 1000);
  return () => (clearInterval(timer), { scrapes, failures });
}

/** An app with its user and contacts loaded; `authorization` is that user's bearer header. */
async function loadedApp(env) {
  const app = await startApp({ env });
  const authorization = await registerUser(app.url);
  await importContacts(app.url, authorization, ROWS);
  return { app, authorization };
}


// The plain app is plain whatever the shell running the bench has set.
for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_') || name === 'METRICS_PORT') delete process.env[name];

const sink = await startOtlpSink();
const metricsPort = await freePort();
const plain = await loadedApp({});
const observed = await loadedApp({
  ...(METRICS_ON ? { METRICS_PORT: String(metricsPort) } : {}),
  ...(TRACES_ON
    ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER: 'parentbased_always_on' }
    : {}),
});
try {
  console.log(`\nMi Asistente.IA embedded, two apps side by side: ${ROWS.toLocaleString('en')} contacts each, ${CONNECTIONS} connections each, ${DURATION} s per run`);
  const run = ({ app, authorization }, title) => measure(`${app.url}${FIRST_PAGE}`, title, { connections: CONNECTIONS, duration: DURATION, headers: { authorization } });
  const ratios = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const stopScraping = METRICS_ON ? scrapeEverySecond(`http://127.0.0.1:${metricsPort}/metrics`) : () => ({ scrapes: 0, failures: 0 });
    const before = sink.received().exports;
    const [without, withThem] = await Promise.all([
      run(plain, `round ${round}: GET ${FIRST_PAGE}, no metrics nor traces`),
      run(observed, `round ${round}: GET ${FIRST_PAGE}, ${LABEL}`),
    ]);
    const scraped = stopScraping();
    const exported = sink.received().exports - before;
    printTable(
      [without, withThem].map((r) => ({
        endpoint: r.title,
        'req/s': Math.round(r.rps).toLocaleString('en'),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'vs without': `${(r.rps / without.rps).toFixed(2)}x`,
      })),
    );
    console.log(`  /metrics answered ${scraped.scrapes} scrapes (${scraped.failures} failed); the collector received ${exported} OTLP exports`);
    if ((METRICS_ON && scraped.scrapes === 0) || (TRACES_ON && exported === 0)) console.log('  WARNING: nothing was scraped or exported: this round is no overhead figure');
    ratios.push(withThem.rps / without.rps);
  }
  const ratio = median(ratios);
  const what = { both: 'with metrics and traces', metrics: 'with metrics alone', traces: 'with traces alone' }[INSTRUMENTS];
  console.log(`\n${what} ${ratio.toFixed(2)}x the same without (median of ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= ${TARGET}x): ${ratio >= TARGET ? 'met' : 'MISSED'}`);
} finally {
  await plain.app.stop();
  await observed.app.stop();
  await sink.stop();
}
