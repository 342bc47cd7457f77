import type { WidgetBody } from '@asistente/contracts';
import {
  AppError,
  currentMemberId,
  type ChannelIntake,
  type IncomingMessage,
  type MessagingProvider,
  type OutgoingMessage,
  type ProviderStatus,
  type SentMessage,
} from '@asistente/kit';
import type { ChannelParts, ThreadRecorder } from '../domain/channel.js';
import { visitorHandle } from '../domain/widget/widget-visitors.js';
import { WIDGET_NOT_FOUND, WidgetSettingsService } from '../domain/widget/widget-settings.js';
import { WidgetsRepository } from '../domain/widget/widgets.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VISITOR = /^visitor:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const WIDGET_OFF_FOR_OWNER = 'El chat web está desactivado: actívalo en Configuración → Chat web';
const NO_MEDIA = 'El chat web todavía no envía archivos: escribe el mensaje como texto';
const NO_VISITOR = 'Ese visitante no está en tu chat web';

/**
 * The website's chat as a provider of the messaging port. Its customers are visitors, who read their thread
 * from the inbox itself (the widget's stream), so a send is delivered once the inbox records it: under the
 * sender's client id, which the visitor's thread shows and the same send again meets. Connecting creates the
 * workspace's widget (or changes it) and switches it on; disconnecting switches it off and keeps its key, so
 * the owner's snippet works again once it is back on. No media yet: the widget shows text only.
 */
export class WidgetProvider implements MessagingProvider<WidgetBody> {
  readonly channel = 'web';
  readonly name = 'widget';
  readonly capabilities = { media: false, receipts: false };
  private readonly widgets: WidgetsRepository;
  private readonly settings: WidgetSettingsService;
  private readonly intake: ChannelIntake;
  private readonly threads: ThreadRecorder;

  constructor(parts: ChannelParts) {
    this.widgets = new WidgetsRepository(parts.sql);
    this.settings = new WidgetSettingsService({ widgets: this.widgets, publicUrl: parts.publicUrl });
    this.intake = parts.intake;
    this.threads = parts.threads;
  }

  async status(workspaceId: string): Promise<ProviderStatus> {
    const widget = await this.widgets.ofWorkspace(workspaceId);
    if (!widget) return { state: 'disconnected', account: null, detail: WIDGET_NOT_FOUND };
    return widget.enabled ? { state: 'connected', account: widget.name, detail: null } : { state: 'disconnected', account: widget.name, detail: WIDGET_OFF_FOR_OWNER };
  }

  async connect(workspaceId: string, settings: WidgetBody): Promise<ProviderStatus> {
    if (await this.widgets.ofWorkspace(workspaceId)) await this.settings.update(workspaceId, { ...settings, enabled: true });
    else await this.settings.create(workspaceId, settings);
    return this.status(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<void> {
    await this.widgets.update(workspaceId, { enabled: false });
  }

  /** A visitor wrote (the widget's public routes): into the inbox through the channel's intake. */
  arrived(workspaceId: string, message: IncomingMessage): Promise<void> {
    return this.intake.received(workspaceId, [message]);
  }

  async send(workspaceId: string, message: OutgoingMessage): Promise<SentMessage> {
    if (message.content.kind !== 'text') throw new AppError(400, 'MEDIA_NOT_SUPPORTED', NO_MEDIA);
    const widget = await this.widgets.ofWorkspace(workspaceId);
    if (!widget?.enabled) throw new AppError(409, 'WIDGET_DISABLED', widget ? WIDGET_OFF_FOR_OWNER : WIDGET_NOT_FOUND);
    const visitorId = VISITOR.exec(message.handle)?.[1];
    if (!visitorId || !(await this.widgets.visitor(workspaceId, visitorId))) throw new AppError(404, 'VISITOR_NOT_FOUND', NO_VISITOR);
    const assistant = message.sender === 'assistant';
    const { entry } = await this.threads.record(
      workspaceId,
      this.channel,
      { id: message.clientId, handle: message.handle, name: null, direction: 'outgoing', direct: true, text: message.content.text, at: new Date() },
      { author: assistant ? 'assistant' : 'member', authorId: assistant ? null : (currentMemberId() ?? null), live: true },
    );
    return { id: entry.channelMessageId ?? message.clientId, handle: message.handle, at: entry.at };
  }

  handleOf(address: string): string | null {
    return UUID.test(address) ? visitorHandle(address.toLowerCase()) : null;
  }
}
