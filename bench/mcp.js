// What the MCP server adds beyond the API call underneath: `tools/call buscar_contactos` through POST /api/mcp
// beside the same search through GET /api/contacts?search=, in the same run, with the same personal token.
//   node --import tsx --conditions=asistente-source bench/mcp.js [--samples 500] [--contacts 2000]
// Runs from source (tsx) in one process: the embedded gateway (every service, PGlite) behind a real HTTP port,
// a user registered and a personal access token made through the API (POST /api/auth/tokens), so both paths
// pay the token's exchange at the edge. One request at a time, the two paths interleaved sample by sample so
// the machine's noise falls on both alike. Three MCP figures: the SDK's own Client (what an AI client sees),
// the same JSON-RPC message posted bare (the server's cost alone), and tools/list.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../gateway/src/gateway.ts';
import { importContacts, registerUser } from './lib/app.js';
import { printTable } from './lib/table.js';

const { values: args } = parseArgs({
  options: { samples: { type: 'string', default: '500' }, contacts: { type: 'string', default: '2000' } },
});
const SAMPLES = Number(args.samples);
const CONTACTS = Number(args.contacts);
const WARMUP = 30;
const TERM = 'Marta';

const teardowns = [];
const t = { teardown: (fn) => teardowns.push(fn) };
// The per-token limit guards the edge; here it would only cut the samples short.
const platform = await createTestPlatform(t, { config: { RATE_LIMIT_TOKEN_MAX: 1_000_000 } });
const gateway = await buildGateway(platform, 'embedded');
const base = await gateway.listen({ port: 0, host: '127.0.0.1' });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

try {
  const session = await registerUser(base);
  await importContacts(base, session, CONTACTS);
  for (const lastName of ['Gómez', 'Ruiz', 'Vidal']) {
    const made = await fetch(`${base}/api/contacts`, {
      method: 'POST',
      headers: { authorization: session, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: TERM, lastName }),
    });
    if (made.status !== 201) throw new Error(`POST /api/contacts answered ${made.status}`);
  }
  const minted = await fetch(`${base}/api/auth/tokens`, {
    method: 'POST',
    headers: { authorization: session, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Banco MCP', scopes: ['contacts:read'], expiresInDays: 30 }),
  });
  if (minted.status !== 201) throw new Error(`POST /api/auth/tokens answered ${minted.status}: ${await minted.text()}`);
  const authorization = `Bearer ${(await minted.json()).token}`;

  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization } } }));

  const rest = async () => {
    const response = await fetch(`${base}/api/contacts?search=${TERM}&limit=10`, { headers: { authorization } });
    const body = await response.json();
    if (response.status !== 200 || body.total !== 3) throw new Error(`GET /api/contacts answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
  };
  const viaClient = async () => {
    const answer = await client.callTool({ name: 'buscar_contactos', arguments: { texto: TERM, limite: 10 } });
    if (answer.isError || !answer.content[0].text.includes('3 encontrados')) throw new Error(`tools/call answered ${JSON.stringify(answer).slice(0, 200)}`);
  };
  let id = 0;
  const bare = async () => {
    const response = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'buscar_contactos', arguments: { texto: TERM, limite: 10 } } }),
    });
    const body = await response.json();
    if (response.status !== 200 || body.result?.isError !== false) throw new Error(`POST /api/mcp answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
  };
  const list = async () => {
    const { tools } = await client.listTools();
    if (tools.length !== 3) throw new Error(`tools/list offered ${tools.length} tools`);
  };

  const paths = [
    ['GET /api/contacts?search= (the API call)', rest],
    ['tools/call buscar_contactos, SDK Client', viaClient],
    ['tools/call buscar_contactos, bare POST', bare],
    ['tools/list, SDK Client', list],
  ];
  const times = paths.map(() => []);
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const [index, [, fn]] of paths.entries()) {
      const ms = await timed(fn);
      if (i >= WARMUP) times[index].push(ms);
    }
  }
  for (const list of times) list.sort((a, b) => a - b);
  const [reference] = times;
  const refP50 = percentile(reference, 0.5);
  const refP95 = percentile(reference, 0.95);

  console.log(`\nMCP tools/call vs the API call underneath: embedded (one process, PGlite), ${CONTACTS.toLocaleString('en')} contacts, a personal token (contacts:read), ${SAMPLES} samples each, one at a time, interleaved\n`);
  printTable(
    paths.map(([title], index) => {
      const p50 = percentile(times[index], 0.5);
      const p95 = percentile(times[index], 0.95);
      return {
        path: title,
        'p50 ms': p50.toFixed(2),
        'p95 ms': p95.toFixed(2),
        'p50 vs API': `${(p50 / refP50).toFixed(2)}x`,
        'p95 vs API': `${(p95 / refP95).toFixed(2)}x`,
        'overhead p50 ms': index === 0 ? '' : (p50 - refP50).toFixed(2),
        'overhead p95 ms': index === 0 ? '' : (p95 - refP95).toFixed(2),
      };
    }),
  );
  await client.close();
} finally {
  await gateway.close();
  for (const fn of teardowns.reverse()) await fn();
}
