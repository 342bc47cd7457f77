import { accountExportRoutes } from '@asistente/contracts';
import { accountExportRoute, authPlugin, HostGuard, OAuthFlows, registerSecretColumns, registerUserErasure, requireAuth, type App, type CallObserver, type Config, type Platform, type SettingsOf } from '@asistente/kit';
import type { FastifyPluginAsync } from 'fastify';
import { CALENDAR_SECRET_COLUMNS } from './domain/secret-columns.js';
import { caldavCalendar } from './adapters/calendars/caldav/calendar.js';
import { caldavConnector } from './adapters/calendars/caldav/client.js';
import { CaldavConnectionService } from './adapters/calendars/caldav/connection.service.js';
import { CaldavEventsService } from './adapters/calendars/caldav/events.service.js';
import { googleCalendar } from './adapters/calendars/google/calendar.js';
import { GoogleOAuth } from './adapters/calendars/google/oauth.js';
import { GoogleWrites } from './adapters/calendars/google/writes.js';
import { outlookCalendar } from './adapters/calendars/outlook/calendar.js';
import { GoogleMeetProvider } from './adapters/meetings/google-meet.js';
import { TeamsMeetingProvider } from './adapters/meetings/teams.js';
import { calendarErasure } from './consumers/user-erasure.js';
import { calendarExportParts } from './domain/account-export.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { CaldavRepository } from './domain/caldav.repository.js';
import type { CalendarPort } from './domain/calendars/calendar-port.js';
import { CalendarRegistry } from './domain/calendars/calendar-registry.js';
import { CalendarSyncService } from './domain/calendar-sync.service.js';
import { EventsService } from './domain/events.service.js';
import { GoogleAccountsRepository } from './domain/google-accounts.repository.js';
import { GoogleConnectionService } from './domain/google-connection.service.js';
import { MeetingsRepository } from './domain/meetings.repository.js';
import { MeetingsService } from './domain/meetings.service.js';
import type { MeetingProvider } from './domain/meetings/meeting-port.js';
import { VideoMeetings } from './domain/meetings/video-meetings.service.js';
import { MirrorRepository } from './domain/mirror.repository.js';
import { PushChannelsService, SWEEP_MS } from './domain/push-channels.service.js';
import { WatchChannelsRepository } from './domain/watch-channels.repository.js';
import { agendaRoutes } from './routes/agenda.js';
import { caldavRoutes } from './routes/caldav.js';
import { calendarScreenRoutes } from './routes/calendar-screen.js';
import { googleCalendarRoutes } from './routes/google-calendar.js';
import { googleConnectionRoutes } from './routes/google-connection.js';
import { googleMeetRoutes } from './routes/google-meet.js';
import { googleNotificationRoutes } from './routes/google-notifications.js';
import { meetingRoutes } from './routes/meetings.js';
import { registerCalendarMetrics } from './metrics.js';
import { settings } from './settings.js';

/** Each request to a user's CalDAV server gives up after this long (the user waits on a connect). */
const CALDAV_TIMEOUT_MS = 15_000;

/** Registered in Google's console; the browser reaches it through the gateway. */
const googleCallbackUrl = (config: Pick<Config, 'PUBLIC_URL'>) => `${config.PUBLIC_URL.replace(/\/$/, '')}/api/google/callback`;

/** Google's client, or undefined until the administrator sets the client id and secret. */
function googleOAuth(config: Pick<Config, 'PUBLIC_URL'> & SettingsOf<typeof settings>, onCall: CallObserver): GoogleOAuth | undefined {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) return undefined;
  return new GoogleOAuth({
    clientId: config.GOOGLE_CLIENT_ID,
    clientSecret: config.GOOGLE_CLIENT_SECRET,
    redirectUri: googleCallbackUrl(config),
    authUrl: config.GOOGLE_AUTH_URL,
    tokenUrl: config.GOOGLE_TOKEN_URL,
    revokeUrl: config.GOOGLE_REVOKE_URL,
    apiUrl: config.GOOGLE_API_URL,
    onCall,
  });
}

export interface CalendarServiceOptions {
  platform: Platform;
  /** Meeting providers after Google Meet and Teams: adding one is one registration here (a test's in-memory one). */
  meetingProviders?: readonly MeetingProvider[];
  /** Calendar providers after Google, CalDAV and Outlook: adding one is one registration here (a test's in-memory one). */
  calendarProviders?: readonly CalendarPort[];
}

/** The calendar service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const calendarService: FastifyPluginAsync<CalendarServiceOptions> = async (fastify, { platform, meetingProviders = [], calendarProviders = [] }) => {
  const app = fastify as unknown as App;
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
  const sql = platform.db.sql;
  const outbox = platform.outbox('calendar');
  const accounts = new GoogleAccountsRepository(sql);
  const mirror = new MirrorRepository(sql);
  const calls = registerCalendarMetrics(platform);
  const google = googleOAuth({ ...platform.config, ...platform.settings(settings) }, calls.google);
  // The owner's screen asks them to ask the administrator; the setting names are for whoever reads this log.
  if (!google) platform.log.info('Google Calendar not configured: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to connect it');
  const connection = new GoogleConnectionService(
    google,
    accounts,
    mirror,
    platform.secrets,
    new OAuthFlows(platform.tokens.secret, sql, 'calendar').flow('google', googleCallbackUrl(platform.config)),
    platform.log,
    sql,
    outbox,
  );
  const sync = new CalendarSyncService(sql, connection, accounts, mirror, platform.log);
  const events = new EventsService(sql, sync, mirror, outbox);
  const googleWrites = new GoogleWrites(connection, google, sync, events);
  const push = new PushChannelsService(connection, sync, new WatchChannelsRepository(sql), PushChannelsService.address(platform.config.PUBLIC_URL), platform.log);
  if (push.enabled) {
    sync.onSynced((userId, calendarId) => {
      push.ensure(userId, calendarId).catch((error: unknown) => platform.log.warn({ err: error instanceof Error ? error.message : error }, 'could not open a google channel'));
    });
    const sweep = setInterval(() => void push.sweep().catch((error: unknown) => platform.log.warn({ err: error }, 'google channel sweep failed')), SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  }
  const meetingsRepository = new MeetingsRepository(sql);
  const googleMeet = new GoogleMeetProvider(sql, connection, googleWrites, sync, mirror, meetingsRepository, outbox);
  const meetings = new MeetingsService(sql, googleMeet, meetingsRepository);
  await googleConnectionRoutes(app, { connection, publicUrl: platform.config.PUBLIC_URL, disconnecting: (userId, forget) => push.disconnect(userId, forget) });
  await googleNotificationRoutes(app, { push });
  await registerUserErasure(platform, calendarErasure(connection, push));
  // Its sealed columns, where key rotation (`asistente admin rotate-keys`) finds them.
  await registerSecretColumns(platform.db.sql, CALENDAR_SECRET_COLUMNS);
  await googleCalendarRoutes(app, { sync, events, writes: googleWrites });
  const caldavRepository = new CaldavRepository(sql);
  const caldavConnection = new CaldavConnectionService(
    caldavConnector(new HostGuard(platform.config.ALLOWED_PRIVATE_ADDRESSES), CALDAV_TIMEOUT_MS, calls.caldav),
    caldavRepository,
    platform.secrets,
    sql,
    outbox,
  );
  const caldavEvents = new CaldavEventsService(sql, caldavConnection, caldavRepository, outbox, platform.log);
  // The calendar providers behind /events, one adapter each (adapters/calendars/<name>): Google first (it tells a
  // user who connected nothing what to connect), then CalDAV, then Outlook (through the teams service that keeps
  // the Microsoft connection), then any the options add.
  const outlook = outlookCalendar(platform.services, platform.log);
  const sources = new CalendarRegistry(
    googleCalendar({ events, sync, connection, writes: googleWrites }),
    caldavCalendar(caldavConnection, caldavEvents),
    outlook,
    ...calendarProviders,
  );
  // The meeting providers, the first connected one taking a new meeting: Google Meet, then Teams.
  const videoMeetings = new VideoMeetings([googleMeet, new TeamsMeetingProvider(platform.services, (userId) => outlook.confirmed(userId)), ...meetingProviders]);
  await caldavRoutes(app, { connection: caldavConnection, events: caldavEvents });
  await calendarScreenRoutes(app, { sync, events, sources });
  await agendaRoutes(app, { sources });
  await googleMeetRoutes(app, { meetings });
  await meetingRoutes(app, { meetings: videoMeetings });
  accountExportRoute(app, accountExportRoutes.calendar, calendarExportParts(new AccountExportRepository(sql)), 'person');
};

export default calendarService;
export * from './domain/secret-columns.js';
export { settings } from './settings.js';
