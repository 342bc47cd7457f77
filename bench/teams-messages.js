// `npm run build && node bench/teams-messages.js`: the Teams channel message pane (GET
// /api/teams/channels/:id/messages, first page of 50) of a channel holding 10,000 messages, through the
// gateway against the local Graph peer (services/teams/test/peer, HTTPS with a self-signed certificate,
// loaded through tsx), side by side with the peer's own latency for the same Graph page and a bare Fastify
// hello world, all measured in the same run.
//   node bench/teams-messages.js [--messages 10000] [--duration 10] [--connections 10]
import { request } from 'node:https';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { registerUser, startApp, startHelloWorld } from './lib/app.js';
import { measure, printLoadTable } from './lib/load.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const MESSAGES = Number(args.messages);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
/** From the issue: the first page of the channel's messages, p99 under this through the gateway. */
const FIRST_PAGE_P99_TARGET_MS = 50;

const load = (url, title, headers) => measure(url, title, { connections: CONNECTIONS, duration: DURATION, headers });

/** GET `url` trusting only the peer's certificate, without following redirects: the Location header. */
function redirectOf(url, ca) {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (response) => {
      response.resume();
      resolve(response.headers.location);
    })
      .on('error', reject)
      .end();
  });
}

/** The consent as a browser makes it: our connect URL, the identity platform's 302 back, our callback. */
async function connectMicrosoft(appUrl, authorization, ca) {
  const { authUrl } = await (await fetch(`${appUrl}/api/teams/connect`, { method: 'POST', headers: { authorization } })).json();
  const back = new URL(await redirectOf(authUrl, ca));
  const callback = await fetch(`${appUrl}${back.pathname}${back.search}`, { redirect: 'manual' });
  if (!String(callback.headers.get('location')).endsWith('microsoft=connected')) throw new Error(`connect failed: ${callback.headers.get('location')}`);
}

const { GraphPeer, PEER_CLIENT } = await tsImport('../services/teams/test/peer/graph-peer.ts', import.meta.url);
const { createPeerTls } = await tsImport('../services/teams/test/peer/peer-tls.ts', import.meta.url);
const tls = await createPeerTls();
const peer = await new GraphPeer(tls).start();
const team = peer.addTeam('Ventas', 12, [{ displayName: 'General' }]);
const channel = team.channels[0];
const start = Date.now() - MESSAGES * 60_000;
for (let i = 0; i < MESSAGES; i++) {
  peer.addMessage(channel, `<p>Mensaje <b>${i}</b>: revisamos el pedido &amp; la entrega de esta semana</p>`, {
    author: i % 2 ? 'Carlos Ruiz' : 'Lucía Pérez',
    at: new Date(start + i * 60_000),
  });
}
Object.assign(process.env, {
  MICROSOFT_CLIENT_ID: PEER_CLIENT.id,
  MICROSOFT_CLIENT_SECRET: PEER_CLIENT.secret,
  MICROSOFT_LOGIN_URL: peer.loginUrl,
  MICROSOFT_GRAPH_URL: peer.graphUrl,
  // The server process trusts the peer's self-signed certificate (read by Node at start).
  NODE_EXTRA_CA_CERTS: tls.caFile,
});
const hello = await startHelloWorld();
const app = await startApp();
try {
  console.log(`\nMi Asistente.IA embedded (one process, PGlite): ${CONNECTIONS} connections, ${DURATION} s per run`);
  console.log(`channel with ${MESSAGES.toLocaleString('en')} messages in the Graph peer\n`);
  const authorization = await registerUser(app.url);
  await connectMicrosoft(app.url, authorization, tls.cert);
  await fetch(`${app.url}/api/teams/${encodeURIComponent(team.id)}/channels`, { headers: { authorization } });
  const pageUrl = `${app.url}/api/teams/channels/${encodeURIComponent(channel.id)}/messages`;
  const first = await fetch(pageUrl, { headers: { authorization } });
  const page = await first.json();
  if (first.status !== 200 || page.length !== 50) throw new Error(`first page answered ${first.status} with ${JSON.stringify(page).slice(0, 200)}`);
  const graphToken = peer.graphRequests().at(-1).authorization;

  const runs = [
    await load(hello.url, 'hello world (bare Fastify)'),
    await load(`${peer.graphUrl}/teams/${encodeURIComponent(team.id)}/channels/${encodeURIComponent(channel.id)}/messages?$top=50`, 'Graph peer: channel messages, $top=50', {
      authorization: graphToken,
    }),
    await load(`${app.url}/api/teams/status`, 'GET /api/teams/status (one query, no Graph)', { authorization }),
    await load(pageUrl, 'GET /api/teams/channels/:id/messages (first page)', { authorization }),
  ];
  const [, graph, , pane] = runs;
  printLoadTable(runs);
  console.log(`\nfirst page p99 ${pane.p99} ms beside the peer's own ${graph.p99} ms (target < ${FIRST_PAGE_P99_TARGET_MS} ms): ${pane.p99 < FIRST_PAGE_P99_TARGET_MS ? 'met' : 'MISSED'}`);
} finally {
  await app.stop();
  await hello.stop();
  await peer.stop();
  tls.dispose();
}
