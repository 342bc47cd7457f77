import { accountExportRoutes } from '@asistente/contracts';
import { accountExportRoute, authPlugin, EventValidator, registerUserErasure, requireAuth, type App, type EventBus, type Logger, type ServicePlugin, type Sql } from '@asistente/kit';
import { ROLLUPS_CHANGED, RollupConsumer } from './consumers/rollup.consumer.js';
import { analyticsErasure } from './consumers/user-erasure.js';
import { analyticsExportParts } from './domain/account-export.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { AnalyticsService } from './domain/analytics.service.js';
import { ConversationFollower } from './domain/conversation-follower.js';
import { OpeningsRepository } from './domain/openings.repository.js';
import { RollupsRepository } from './domain/rollups.repository.js';
import { TeamFiguresRepository } from './domain/team-figures.repository.js';
import { TeamFiguresService } from './domain/team-figures.service.js';
import { analyticsRoutes } from './routes/analytics.js';
import { streamRoutes } from './routes/stream.js';
import { registerAnalyticsMetrics } from './metrics.js';

/** Name of the durable JetStream consumer (shared by every analytics replica). */
export const ANALYTICS_CONSUMER = 'analytics';

/** The rollup consumer on `sql`: each replica holds one; `onApplied` hears of each user whose figures moved. */
export function createRollupConsumer(sql: Sql, log: Logger, onApplied?: (userId: string) => void): RollupConsumer {
  return new RollupConsumer(sql, new RollupsRepository(sql), new ConversationFollower(new OpeningsRepository()), new EventValidator(), log, onApplied);
}

/** Starts the durable rollup consumer on `bus`; live screens hear about each applied event. */
export async function subscribeRollups(sql: Sql, bus: EventBus, log: Logger): Promise<RollupConsumer> {
  const consumer = createRollupConsumer(sql, log, (userId) => bus.signal(ROLLUPS_CHANGED, userId));
  await bus.subscribe(ANALYTICS_CONSUMER, async (events) => {
    await consumer.handle(events);
  });
  return consumer;
}

/** The analytics service as a plugin: the rollup consumer, the figures API and the live stream. */
const analyticsService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  const { db, bus, log } = platform;

  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
  registerAnalyticsMetrics(platform);
  await subscribeRollups(db.sql, bus, log);
  await registerUserErasure(platform, analyticsErasure);
  await analyticsRoutes(app, {
    analytics: new AnalyticsService(new RollupsRepository(db.sql)),
    team: new TeamFiguresService(new TeamFiguresRepository(db.sql)),
  });
  await streamRoutes(app, { bus, streams: platform.streams });
  accountExportRoute(app, accountExportRoutes.analytics, analyticsExportParts(new AccountExportRepository(db.sql)));
};

export default analyticsService;
export { RollupConsumer } from './consumers/rollup.consumer.js';
export { rebuildRollups } from './domain/rebuild.js';
