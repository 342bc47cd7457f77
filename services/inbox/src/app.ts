import { accountExportRoutes } from '@asistente/contracts';
import { accountExportRoute, authPlugin, EventValidator, mountRetention, registerUserErasure, requireAuth, type App, type Platform, type ServicePlugin } from '@asistente/kit';
import { AssistantDrafts } from './adapters/assistant-drafts.js';
import { ContactsDirectory } from './adapters/contacts-directory.js';
import { ChannelMessagesConsumer, INBOX_CONSUMER } from './consumers/channel-messages.consumer.js';
import { inboxExportParts } from './domain/account-export.js';
import { INBOX_CHANNELS, type InboxChannels } from './channels.js';
import type { Channel, ChannelParts } from './domain/channel.js';
import { InboxChannelIntake } from './domain/channel-intake.js';
import { ProviderChannel } from './domain/provider-channel.js';
import { ConversationsRepository } from './domain/conversations.repository.js';
import { ConversationsService } from './domain/conversations.service.js';
import { EntriesRepository } from './domain/entries.repository.js';
import { InboxSettingsRepository } from './domain/inbox-settings.repository.js';
import { InboxTeam } from './domain/inbox-team.js';
import { Intake } from './domain/intake.js';
import { LiveSignals } from './domain/live-signals.js';
import { Presence } from './domain/presence.js';
import { MemberDeparture } from './domain/member-departure.js';
import { MembersDirectory } from './domain/members-directory.js';
import { Mentions } from './domain/mentions.js';
import { INBOX_RETENTION_STEPS } from './domain/retention.js';
import { Suggestions } from './domain/suggestions.js';
import { conversationRoutes } from './routes/conversations.js';
import { liveRoutes } from './routes/live.js';
import { suggestionRoutes } from './routes/suggestions.js';
import { teamRoutes } from './routes/team.js';
import { VisitorTokens } from './domain/widget/visitor-tokens.js';
import { WidgetBudget } from './domain/widget/widget-budget.js';
import { WidgetSettingsService } from './domain/widget/widget-settings.js';
import { WidgetVisitors } from './domain/widget/widget-visitors.js';
import { WidgetsRepository } from './domain/widget/widgets.repository.js';
import { widgetPublicRoutes } from './routes/widget-public.js';
import { widgetRoutes } from './routes/widget.js';

/** The inbox's parts on the platform's database and bus (the plugin mounts them; tests drive them directly too). */
export function createInbox(platform: Platform, registry: InboxChannels = INBOX_CHANNELS) {
  const { sql } = platform.db;
  const outbox = platform.outbox('inbox');
  const conversations = new ConversationsRepository(sql);
  const entries = new EntriesRepository(sql);
  const settings = new InboxSettingsRepository(sql);
  const members = new MembersDirectory(platform.services);
  const mentions = new Mentions(sql);
  const signals = new LiveSignals(platform.bus);
  const intake = new Intake({ sql, outbox, conversations, entries, settings, members, signals });
  const parts = (channel: string): ChannelParts => ({
    sql, services: platform.services, intake: new InboxChannelIntake(intake, channel), threads: intake, publicUrl: platform.config.PUBLIC_URL,
  });
  // WhatsApp's messages come by its events, and visitors write through the web provider: both named here.
  const whatsapp = registry.whatsapp(parts('whatsapp'));
  const web = registry.web(parts('web'));
  const channels = new Map<string, Channel>(
    Object.entries(registry).map(([name, register]) => {
      const built = name === 'whatsapp' ? whatsapp : name === 'web' ? web : register(parts(name));
      const channel = 'capabilities' in built ? new ProviderChannel(built) : built;
      if (channel.name !== name) throw new Error(`inbox channel registered as ${name} calls itself ${channel.name}`);
      return [name, channel];
    }),
  );
  const departures = new MemberDeparture({ sql, outbox, conversations, settings, signals });
  const contacts = new ContactsDirectory(platform.services);
  const suggestions = new Suggestions({ sql, conversations, entries, contacts, drafter: new AssistantDrafts(platform.services), signals, log: platform.log });
  const widgets = new WidgetsRepository(sql);
  return {
    intake,
    conversationRows: conversations,
    entryRows: entries,
    widgetSettings: new WidgetSettingsService({ widgets, publicUrl: platform.config.PUBLIC_URL }),
    widgetVisitors: new WidgetVisitors({
      widgets, tokens: new VisitorTokens(platform.tokens.secret), budget: new WidgetBudget(sql), channel: web, conversations, entries, contacts, signals,
    }),
    consumer: new ChannelMessagesConsumer({ intake, whatsapp, departures, events: new EventValidator(), log: platform.log }),
    conversations: new ConversationsService({
      sql, outbox, conversations, entries, settings, members, intake, mentions, channels, signals, contacts, suggestions,
    }),
    suggestions,
    team: new InboxTeam({ settings, conversations, members, mentions }),
    presence: new Presence({ sql, members, signals }),
  };
}

export interface InboxServiceOptions {
  /** The channels (tests: the product's and one of their own, `{ ...INBOX_CHANNELS, memory: … }`). */
  channels?: InboxChannels;
}

/** The team's shared inbox as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
export function createInboxService(options: InboxServiceOptions = {}): ServicePlugin {
  return async (fastify, { platform }) => {
    const app = fastify as unknown as App;
    await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
    requireAuth(app);
    const inbox = createInbox(platform, options.channels);
    await platform.bus.subscribe(INBOX_CONSUMER, inbox.consumer.handle);
    // "Eliminar mi cuenta": every table of the schema keyed by the workspace.
    await registerUserErasure(platform, { service: 'inbox' });
    // The owner's WhatsApp retention reaches the inbox's copies of those messages.
    const retention = await mountRetention({ sql: platform.db.sql, bus: platform.bus, log: platform.log, schema: 'inbox', kind: 'whatsappDays', steps: INBOX_RETENTION_STEPS });
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.stop());
    await conversationRoutes(app, { conversations: inbox.conversations });
    await suggestionRoutes(app, { suggestions: inbox.suggestions });
    await teamRoutes(app, { team: inbox.team });
    await widgetRoutes(app, { settings: inbox.widgetSettings });
    await widgetPublicRoutes(app, {
      visitors: inbox.widgetVisitors, conversations: inbox.conversationRows, entries: inbox.entryRows, bus: platform.bus, streams: platform.streams,
    });
    await liveRoutes(app, { presence: inbox.presence, bus: platform.bus, streams: platform.streams });
    accountExportRoute(app, accountExportRoutes.inbox, inboxExportParts(platform.db.sql));
  };
}

const inboxService: ServicePlugin = createInboxService();

export default inboxService;
