import { authPlugin, OAuthFlows, observeProviderCalls, registerSecretColumns, registerUserErasure, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { TEAMS_SECRET_COLUMNS } from './domain/secret-columns.js';
import { microsoftClients } from './adapters/microsoft-clients.js';
import { CalendarWritesService } from './domain/calendar-writes.service.js';
import { CalendarsService } from './domain/calendars.service.js';
import { ChannelsRepository } from './domain/channels.repository.js';
import { ConnectionService } from './domain/connection.service.js';
import { ConnectionsRepository } from './domain/connections.repository.js';
import { MeetingsService } from './domain/meetings.service.js';
import { microsoftCallbackUrl, microsoftSettings } from './domain/microsoft-settings.js';
import { TeamsService } from './domain/teams.service.js';
import { calendarRoutes } from './routes/calendars.js';
import { connectionRoutes } from './routes/connection.js';
import { meetingRoutes } from './routes/meetings.js';
import { teamsRoutes } from './routes/teams.js';
import { settings as teamsSettings } from './settings.js';

/** The teams service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const teamsService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
  const sql = platform.db.sql;
  const outbox = platform.outbox('teams');
  const settings = microsoftSettings({ ...platform.config, ...platform.settings(teamsSettings) });
  // The owner is only told to ask the administrator; the administrator finds the setting names here.
  if (!settings) platform.log.info('Microsoft 365 not configured: set MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET to connect Teams');
  const connection = new ConnectionService(
    settings,
    new ConnectionsRepository(sql),
    platform.secrets,
    new OAuthFlows(platform.tokens.secret, sql, 'teams').flow('microsoft', microsoftCallbackUrl(platform.config)),
    platform.log,
    { sql, outbox },
    settings && microsoftClients(settings, observeProviderCalls(platform.metrics, 'graph')),
  );
  await connectionRoutes(app, { connection });
  await meetingRoutes(app, { meetings: new MeetingsService(sql, connection, outbox) });
  await teamsRoutes(app, { teams: new TeamsService(sql, connection, new ChannelsRepository(sql), outbox) });
  await calendarRoutes(app, { calendars: new CalendarsService(connection), writes: new CalendarWritesService(sql, connection, outbox) });
  // "Eliminar mi cuenta": the sealed Microsoft tokens (Microsoft has no endpoint to revoke them: they are
  // erased), channels and seen messages go with every user_id table of the schema.
  await registerUserErasure(platform, { service: 'teams' });
  // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
  await registerSecretColumns(platform.db.sql, TEAMS_SECRET_COLUMNS);
};

export default teamsService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
