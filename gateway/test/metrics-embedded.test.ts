import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { buildGateway } from '../src/gateway.js';
import { isServed, servedTypes } from './monitoring/queries.js';

/**
 * The embedded process with METRICS_PORT set: every service mounted in one process registers on one
 * registry (no duplicate-name error), requests are labelled by the route pattern under /api, and no label
 * carries an id or an address whatever the routes were asked.
 */
const platform = await createTestPlatform(t, { config: { METRICS_PORT: 0, HOST: '127.0.0.1' } });
const app = await buildGateway(platform, 'embedded');
await app.ready();
t.teardown(() => app.close());

const scrape = async () => (await fetch(`http://127.0.0.1:${platform.metricsPort}/metrics`)).text();

t.test('one /metrics for the whole product, by route pattern, with no user id, email or contact id in any label', async (t) => {
  const email = 'metricas.ana@ejemplo.es';
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { firstName: 'Ana', lastName: 'López', email, password: 'secreto1' } });
  t.equal(registered.statusCode, 201);
  const { token, user } = registered.json<{ token: string; user: { id: string } }>();
  const headers = { authorization: `Bearer ${token}` };
  const created = await app.inject({ method: 'POST', url: '/api/contacts', headers, payload: { firstName: 'Íñigo', lastName: 'Sáez', email: 'inigo@acme.es' } });
  t.equal(created.statusCode, 201);
  const contactId = created.json<{ id: string }>().id;
  t.equal((await app.inject({ url: `/api/contacts/${contactId}`, headers })).statusCode, 200);
  t.equal((await app.inject({ url: `/api/contacts?search=${encodeURIComponent('inigo@acme.es')}`, headers })).statusCode, 200);
  t.equal((await app.inject({ url: `/api/whatsapp/status`, headers })).statusCode, 200);
  t.equal((await app.inject({ url: `/api/nothing/${user.id}/${email}`, headers })).statusCode, 404);
  // The MCP route writes its answer itself (a hijacked reply): it is counted all the same, by its pattern.
  const personal = await app.inject({ method: 'POST', url: '/api/auth/tokens', headers, payload: { name: 'Cliente MCP', scopes: ['contacts:read'], expiresInDays: 30 } });
  t.equal(personal.statusCode, 201, 'a personal token for the MCP server');
  const mcp = await app.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: { authorization: `Bearer ${personal.json<{ token: string }>().token}`, accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'metricas', version: '1' } } },
  });
  t.equal(mcp.statusCode, 200, 'the MCP server answers');
  const publicMetrics = await app.inject({ url: '/metrics' });
  t.notMatch(publicMetrics.body, /# TYPE/, 'the public port never serves the metrics');

  const text = await scrape();
  t.match(text, /^asistente_http_requests_total\{route="\/api\/contacts\/:id",method="GET",status="200",process="test"\} 1$/m, 'the contact read is labelled by its pattern');
  t.match(text, /^asistente_http_requests_total\{route="\/api\/auth\/register",method="POST",status="201",process="test"\} 1$/m);
  t.match(text, /^asistente_http_requests_total\{route="unmatched",method="GET",status="404",process="test"\} 1$/m);
  t.match(text, /^asistente_http_requests_total\{route="\/api\/mcp",method="POST",status="200",process="test"\} 1$/m, 'the MCP route by its pattern');
  for (const secret of [user.id, contactId, email, 'inigo@acme.es', token]) t.notMatch(text, secret, 'no id, address or token in the metrics');
  t.notMatch(text, /@/, 'no email address at all');

  const types = servedTypes(text);
  const integrations = [
    'asistente_whatsapp_accounts', 'asistente_whatsapp_accounts_down', 'asistente_whatsapp_sends_pending', 'asistente_whatsapp_sends_failed_total',
    'asistente_mail_accounts', 'asistente_mail_idle_sessions', 'asistente_mail_sync_lag_seconds',
    'asistente_calendar_push_channels', 'asistente_provider_calls_total',
    'asistente_ai_runs_today', 'asistente_ai_cost_usd_today', 'asistente_ai_budget_reached_accounts', 'asistente_ai_model_calls_total', 'asistente_ai_tokens_total',
    'asistente_webhook_deliveries_total', 'asistente_webhook_deliveries_due', 'asistente_webhook_oldest_due_seconds',
    'asistente_events_parked', 'asistente_outbox_waiting', 'asistente_outbox_oldest_age_seconds', 'asistente_relay_published_total',
    'asistente_http_request_duration_seconds_bucket', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'asistente_db_pool_max',
  ];
  for (const name of integrations) t.ok(isServed(name, types), `serves ${name}`);
  t.match(text, /^asistente_outbox_waiting\{schema="contacts",process="test"\} \d+$/m, 'the outboxes of the services mounted here');
  t.match(text, /^asistente_whatsapp_accounts_down\{process="test"\} 0$/m);
  t.notMatch(text, /asistente_metrics_read_failures_total\{/, 'every scrape-time read succeeded');
});

t.test('the integration gauges count what the database holds, with bounded labels only', async (t) => {
  const { sql } = platform.db;
  const [ana, beto, carla] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  // Leases held by "another replica", so this process's session managers leave these accounts alone.
  const held = sql`now() + interval '1 hour'`;
  await sql`insert into whatsapp.accounts (user_id, wanted, linked, state, lease_owner, lease_until) values
    (${ana}, true, true, 'connected', 'otra', ${held}), (${beto}, true, true, 'logged_out', 'otra', ${held}), (${carla}, false, false, 'disconnected', 'otra', ${held})`;
  const mailbox = (userId: string, address: string, connected: boolean, lastSync: string) => sql`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure,
                                smtp_user, credentials_enc, connected, last_sync_at, lease_owner, lease_until)
    values (${userId}, 'imap', ${address}, 'imap.ejemplo.es', 993, true, ${address}, 'smtp.ejemplo.es', 465, true, ${address}, 'v1:k:a:b:c',
            ${connected}, now() - ${lastSync}::interval, 'otra', ${held})`;
  await mailbox(ana, 'ana@ejemplo.es', true, '2 hours');
  await mailbox(beto, 'beto@ejemplo.es', false, '1 day');
  const run = (userId: string, trigger: string, cost: number) => sql`
    insert into ai.runs (id, user_id, trigger, model, prompt_tokens, completion_tokens, cost_usd)
    values (${crypto.randomUUID()}, ${userId}, ${trigger}, 'gpt-4o-mini', 100, 20, ${cost})`;
  await run(ana, 'whatsapp', 0.7);
  await run(ana, 'whatsapp', 0.6);
  await run(beto, 'manual', 0.2);
  await sql`insert into analytics.parked_events (event_id, type, reason, payload) values ('x', 'contacts.contact.created', 'invalid', '{}')`;

  const expected: Record<string, number> = {
    'asistente_whatsapp_accounts{state="connected",process="test"}': 1,
    'asistente_whatsapp_accounts{state="logged_out",process="test"}': 1,
    'asistente_whatsapp_accounts_down{process="test"}': 1,
    'asistente_mail_accounts{state="connected",process="test"}': 1,
    'asistente_mail_accounts{state="disconnected",process="test"}': 1,
    'asistente_mail_idle_sessions{process="test"}': 1,
    'asistente_ai_runs_today{trigger="whatsapp",process="test"}': 2,
    'asistente_ai_runs_today{trigger="manual",process="test"}': 1,
    'asistente_ai_budget_reached_accounts{process="test"}': 1,
    'asistente_events_parked{process="test"}': 1,
  };
  const sample = (text: string, series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1));
  const matches = (text: string) => Object.entries(expected).every(([series, value]) => sample(text, series) === value);
  // The gauges keep a read for 5 s (the first test scraped just before): poll until the rows show.
  let text = await scrape();
  for (const deadline = Date.now() + 15_000; !matches(text) && Date.now() < deadline; text = await scrape()) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (const [series, value] of Object.entries(expected)) t.equal(sample(text, series), value, series);
  t.ok(sample(text, 'asistente_mail_sync_lag_seconds{process="test"}') >= 7200, 'the connected mailbox last synced two hours ago');
  t.ok(Math.abs(sample(text, 'asistente_ai_cost_usd_today{process="test"}') - 1.5) < 1e-9, "today's cost");
  for (const secret of [ana, beto, carla, 'ana@ejemplo.es', 'beto@ejemplo.es']) t.notMatch(text, secret, 'no user or address in a label');
});
