// Web budgets: initial JS of the production build (gzip), first contentful paint, and the time until the
// contacts table is on screen and usable with 10k contacts, measured in Debian's Chromium.
// Assumes `npm run build` ran (web/dist and gateway/dist). Usage: node bench/web.js [--runs 5] [--contacts 10000]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { median } from './lib/median.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'web/dist');
const CHROMIUM = '/usr/bin/chromium';
const BUDGET = { initialJsKb: 30, contactsInteractiveMs: 1000 };
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, contacts: { type: 'string', default: '10000' } },
});
const RUNS = Number(args.runs);
const CONTACTS = Number(args.contacts);

const kb = (bytes) => (bytes / 1024).toFixed(1);
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : 'n/a');

/** Scripts the browser fetches before the first screen: the entry and its modulepreloads. */
function initialJs() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]);
  const sizes = files.map((file) => {
    const raw = readFileSync(join(DIST, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
  return { files: sizes, gzip: sizes.reduce((s, f) => s + f.gzip, 0), raw: sizes.reduce((s, f) => s + f.raw, 0) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'asistente-bench-web-'));
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.NATS_URL;
  const child = spawn(process.execPath, [join(ROOT, 'gateway/dist/main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return { url, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error('the server did not answer /health in 90 s');
}

async function seed(url) {
  const register = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ firstName: 'Banco', lastName: 'Pruebas', email: `bench.${Date.now()}@ejemplo.com`, password: 'Girasol-Azul-2026' }),
  });
  const session = await register.json();
  const lines = ['nombre,apellido,correo,telefono,empresa,etiquetas'];
  for (let i = 0; i < CONTACTS; i++) {
    lines.push(`Nombre${i},Apellido${i},contacto${i}@ejemplo.com,+34 600 ${String(i).padStart(6, '0')},Empresa ${i % 250},etiqueta${i % 20}`);
  }
  const started = performance.now();
  const imported = await fetch(`${url}/api/contacts/import`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/csv', Authorization: `Bearer ${session.token}` },
    body: lines.join('\n'),
  });
  const report = await imported.json();
  if (!imported.ok || report.created !== CONTACTS) throw new Error(`seeding failed: ${JSON.stringify(report).slice(0, 300)}`);
  return { session, importMs: performance.now() - started };
}

// Runs in the page before any app code: notes when the contacts table first shows its rows.
function watchTable() {
  new MutationObserver((_, observer) => {
    if (document.querySelectorAll('table tbody tr').length > 0) {
      window.__tableAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

async function measure(browser, url, session) {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    storageState: {
      cookies: [],
      origins: [{ origin: url, localStorage: [{ name: 'token', value: session.token }, { name: 'user', value: JSON.stringify(session.user) }] }],
    },
  });
  const page = await context.newPage();
  await page.addInitScript(watchTable);
  await page.goto(`${url}/contacts`);
  await page.waitForSelector('table tbody tr');
  // Usable = rows on screen and the page answers input: the time the next page takes to show is measured too.
  const { fcp, table } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    table: window.__tableAt,
  }));
  // Measured inside the page, from the click to the new page's rows on screen.
  const nextPage = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const label = document.querySelector('.pagination p');
        const before = label.textContent;
        const start = performance.now();
        new MutationObserver((_, observer) => {
          if (label.textContent === before) return;
          observer.disconnect();
          resolve(performance.now() - start);
        }).observe(document.querySelector('main'), { childList: true, subtree: true, characterData: true });
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Siguiente').click();
      }),
  );
  const guest = await browser.newContext();
  const login = await guest.newPage();
  await login.goto(`${url}/login`);
  await login.waitForSelector('form');
  const loginFcp = await login.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
  await Promise.all([context.close(), guest.close()]);
  return { fcp, loginFcp, table, nextPage };
}

async function main() {
  for (const needed of [join(DIST, 'index.html'), join(ROOT, 'gateway/dist/main.js')]) {
    if (!existsSync(needed)) throw new Error(`${needed} is missing: run npm run build first`);
  }
  const js = initialJs();
  console.log('Initial JS (production build, gzip -9):');
  for (const f of js.files) console.log(`  ${f.file.padEnd(44)} ${kb(f.raw).padStart(7)} KB raw  ${kb(f.gzip).padStart(6)} KB gzip`);
  console.log(`  total ${kb(js.gzip)} KB gzip (budget ${BUDGET.initialJsKb} KB) ${js.gzip / 1024 <= BUDGET.initialJsKb ? 'OK' : 'OVER BUDGET'}`);

  if (!existsSync(CHROMIUM)) {
    console.log(`\n${CHROMIUM} is missing (apt-get install -y chromium): browser timings skipped.`);
    return;
  }
  const server = await startServer();
  let browser;
  try {
    const { session, importMs } = await seed(server.url);
    console.log(`\nSeeded ${CONTACTS} contacts through the CSV import in ${importMs.toFixed(0)} ms.`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    await measure(browser, server.url, session); // warm-up: server caches and the browser process
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, server.url, session));
    const fcp = median(runs.map((r) => r.fcp));
    const loginFcp = median(runs.map((r) => r.loginFcp));
    const table = median(runs.map((r) => r.table));
    const nextPage = median(runs.map((r) => r.nextPage));
    console.log(`Chromium, median of ${RUNS} cold page loads (fresh context each), localhost:`);
    console.log(`  first contentful paint, /login            ${ms(loginFcp)}`);
    console.log(`  first contentful paint, /contacts         ${ms(fcp)}`);
    console.log(
      `  contacts table on screen (${CONTACTS} contacts) ${ms(table)} (budget < ${BUDGET.contactsInteractiveMs} ms) ${table < BUDGET.contactsInteractiveMs ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(`  next page shown after the click           ${ms(nextPage)}`);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
