import type { FastifyInstance } from 'fastify';
import type { Sql } from '../db/database.js';
import type { EventBus } from '../events/bus.js';

export interface HealthDeps {
  sql: Sql;
  bus: EventBus;
  name: string;
}

/**
 * `/health`: the process is alive. `/ready`: it can serve, i.e. its database
 * answers. NATS being down does not make a process unready: writes keep
 * succeeding and the outbox holds the events.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/health', { config: { public: true } }, async () => ({ status: 'ok', service: deps.name }));
  app.get('/ready', { config: { public: true } }, async (_request, reply) => {
    const database = await deps.sql`select 1`.then(
      () => 'ok' as const,
      () => 'down' as const,
    );
    const events = deps.bus.isReady() ? 'ok' : 'waiting';
    const ready = database === 'ok';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not-ready', service: deps.name, checks: { database, events } });
  });
}
