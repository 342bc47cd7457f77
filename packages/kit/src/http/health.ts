import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import { isDatabaseUnavailable } from './errors.js';

export interface HealthDeps {
  sql: Sql;
  bus: EventBus;
  name: string;
  /**
   * Further dependencies `/ready` requires, by name (the gateway's upstream services): each answers
   * true when reachable. A failing one makes the process unready and is named in `checks`.
   */
  probes?: Record<string, () => Promise<boolean>>;
  /** How long a check may take before it counts as down (a hung database must not hang /ready). Default 2 s. */
  timeoutMs?: number;
}

async function within(check: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const ok = check.then(
    () => true,
    () => false,
  );
  const result = await Promise.race([ok, timeout]);
  clearTimeout(timer);
  return result;
}

/**
 * A pooled connection the server ended (a restart, a failover, connections cut) is found dead by its next
 * query, however late. That is one stale connection, not a database that is down: asked once more, the pool
 * answers on a new one. Without it, /ready flapped once per dead connection after a cut.
 */
function databaseAnswers(sql: Sql): Promise<unknown> {
  return sql`select 1`.execute().catch((error: unknown) => {
    if (!isDatabaseUnavailable(error)) throw error;
    return sql`select 1`.execute();
  });
}

/**
 * `/health`: the process is alive. `/ready`: it can serve, i.e. its database
 * answers (within a couple of seconds) and so do the probes it was given.
 * NATS being down does not make a process unready: writes keep succeeding and
 * the outbox holds the events; `checks.events` says honestly whether events flow.
 */
/** The probes' answers, declared so the API reference lists them (public: no token). */
const HealthSchema = {
  summary: 'El proceso está vivo',
  response: { 200: Type.Object({ status: Type.Literal('ok'), service: Type.String() }) },
};
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not-ready')]),
  service: Type.String(),
  checks: Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('down')])),
  missing: Type.Optional(Type.Array(Type.String())),
});
const ReadySchema = { summary: 'El proceso puede atender (base de datos y servicios detrás)', response: { 200: Readiness, 503: Readiness } };

export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  const timeoutMs = deps.timeoutMs ?? 2000;
  app.get('/health', { config: { public: true }, schema: HealthSchema }, async () => ({ status: 'ok', service: deps.name }));
  app.get('/ready', { config: { public: true }, schema: ReadySchema }, async (_request, reply) => {
    const probes = Object.entries(deps.probes ?? {});
    const [database, ...probed] = await Promise.all([
      within(databaseAnswers(deps.sql), timeoutMs),
      ...probes.map(([, probe]) => within(probe().then((ok) => (ok ? ok : Promise.reject(new Error('down')))), timeoutMs)),
    ]);
    const checks: Record<string, string> = { database: database ? 'ok' : 'down', events: deps.bus.isReady() ? 'ok' : 'down' };
    probes.forEach(([name], i) => (checks[name] = probed[i] ? 'ok' : 'down'));
    const missing = probes.filter((_, i) => !probed[i]).map(([name]) => name);
    const ready = database && missing.length === 0;
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not-ready', service: deps.name, checks, ...(missing.length > 0 ? { missing } : {}) });
  });
}
