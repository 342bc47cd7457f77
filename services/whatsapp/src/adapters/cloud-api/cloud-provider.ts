// WhatsApp's official Cloud API as a provider of the WhatsApp channel (the messaging port). Built from the
// database, the key ring, an outbox and an intake; everything it learns from Meta goes to the intake, and what
// it sends goes through the same queue and events as the socket's sends.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { CLOUD_WINDOW_MS, type CloudTemplate } from '@asistente/contracts';
import {
  AppError,
  badRequest,
  conflict,
  type ChannelIntake,
  type Logger,
  type Media,
  type MessagingProvider,
  type OutgoingMessage,
  type Outbox,
  type ProviderStatus,
  type SecretBox,
  type SentMessage,
  type Sql,
} from '@asistente/kit';
import { AccountsRepository } from '../../domain/accounts.repository.js';
import { CloudAccountsRepository, NumberTakenError, type CloudAccountRow } from '../../domain/cloud-accounts.repository.js';
import { renderTemplate, variablesOf, type CloudContent } from '../../domain/cloud-content.js';
import { jidOfHandle } from '../../domain/cloud-intake.js';
import { CloudReceiptsRepository } from '../../domain/cloud-receipts.repository.js';
import { CloudWebhooksRepository } from '../../domain/cloud-webhooks.repository.js';
import { MessagesRepository } from '../../domain/messages.repository.js';
import { OutboundService, type Pacing } from '../../domain/outbound.service.js';
import { CloudDelivery, type DeliveryTiming } from './cloud-delivery.js';
import {
  CLOUD_DISCONNECTED_UNSENT,
  CLOUD_NUMBER_TAKEN,
  CLOUD_PHONES_ONLY,
  callFailure,
  connectFailure,
  notConfigured,
  notConnected,
  unreachable,
  windowClosed,
} from './cloud-errors.js';
import { CloudReceipts } from './cloud-receipts.js';
import { CloudWebhooks, type WebhookTiming } from './cloud-webhooks.js';
import { tokenContext } from './cloud-token.js';
import { DEFAULT_GRAPH_TIMING, GraphClient, type GraphTiming } from './graph-client.js';

export interface CloudSettings {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
}

export interface CloudTiming extends DeliveryTiming, WebhookTiming {
  /** The catch-up pass: stored webhooks nobody processed and sends nobody delivered (a replica died). */
  tickMs: number;
  /** How long `send` waits for Meta's id of what it queued (another replica may be the one sending). */
  sendWaitMs: number;
}

export const DEFAULT_CLOUD_TIMING: CloudTiming = { leaseMs: 30_000, claimMs: 30_000, maxAttempts: 10, tickMs: 5_000, sendWaitMs: 30_000 };

export interface CloudProviderDeps {
  sql: Sql;
  secrets: SecretBox;
  outbox: Outbox;
  intake: ChannelIntake;
  log: Logger;
  /** WHATSAPP_CLOUD_API_URL: Meta's Graph host, or a local peer. */
  apiUrl: string;
  /** WHATSAPP_CLOUD_APP_SECRET: webhooks are refused without it, and no number can be connected. */
  appSecret?: string;
  graph?: Partial<GraphTiming>;
  timing?: Partial<CloudTiming>;
  /** The service's own queue (shared with the socket's sends); one is built on `sql` otherwise. */
  outbound?: OutboundService;
  messages?: MessagesRepository;
  pacing?: Pacing;
  /** Whether a workspace may connect (the service refuses one whose phone is linked over Baileys). */
  mayConnect?: (workspaceId: string) => Promise<void>;
}

/** A template send, as the route or the assistant asks for it. */
export interface TemplateSend {
  jid: string;
  name: string;
  language: string;
  variables: string[];
  origin: 'app' | 'ai';
  clientId: string | null;
}

const WAIT_POLL_MS = 50;
const PRUNE_EVERY_TICKS = 720;

export class CloudApiProvider implements MessagingProvider<CloudSettings> {
  readonly channel = 'whatsapp';
  readonly name = 'cloud';
  readonly capabilities = { media: true, receipts: true };

  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly accounts: CloudAccountsRepository;
  readonly webhooks: CloudWebhooks;
  private readonly messages: MessagesRepository;
  private readonly outbound: OutboundService;
  private readonly delivery: CloudDelivery;
  private readonly graph: GraphClient;
  private readonly timing: CloudTiming;
  private readonly seen: CloudWebhooksRepository;
  private readonly receipts: CloudReceipts;
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private ticking: Promise<void> | undefined;

  constructor(private readonly deps: CloudProviderDeps) {
    const { sql, log } = deps;
    this.timing = { ...DEFAULT_CLOUD_TIMING, ...deps.timing };
    this.graph = new GraphClient(deps.apiUrl, { ...DEFAULT_GRAPH_TIMING, ...deps.graph });
    this.accounts = new CloudAccountsRepository(sql);
    this.messages = deps.messages ?? new MessagesRepository(sql);
    this.outbound =
      deps.outbound ??
      new OutboundService(sql, this.messages, new AccountsRepository(sql), deps.outbox, () => `local.${randomUUID()}`, log, deps.pacing ?? { automatedGapMs: 0 });
    this.receipts = new CloudReceipts(new CloudReceiptsRepository(sql), deps.intake);
    this.delivery = new CloudDelivery(this.owner, this.accounts, this.messages, this.outbound, this.graph, this.receipts, deps.secrets, log, this.timing);
    this.seen = new CloudWebhooksRepository(sql);
    this.webhooks = new CloudWebhooks(this.owner, deps.appSecret, this.accounts, this.seen, deps.intake, this.receipts, (userId) => void this.deliver(userId), log, this.timing);
  }

  /** The catch-up pass, every `tickMs`, on every replica (each claims what it processes). */
  start(): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => {
        this.ticking = undefined;
      });
    }, this.timing.tickMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await this.delivery.close();
  }

  private async tick(): Promise<void> {
    try {
      await this.webhooks.process();
      for (const userId of await this.accounts.withPending()) await this.delivery.deliver(userId);
      await this.receipts.catchUp();
      if (this.ticks++ % PRUNE_EVERY_TICKS === 0) await this.seen.pruneSeen();
    } catch (error) {
      this.deps.log.error({ err: error }, 'whatsapp cloud tick failed');
    }
  }

  async account(workspaceId: string): Promise<CloudAccountRow | undefined> {
    return this.accounts.find(workspaceId);
  }

  async status(workspaceId: string): Promise<ProviderStatus> {
    const account = await this.accounts.find(workspaceId);
    if (!account) return { state: 'disconnected', account: null, detail: null };
    return { state: 'connected', account: account.displayPhone ?? account.verifiedName, detail: null };
  }

  /** Checks the token against the number and the business account before anything is stored. */
  async connect(workspaceId: string, settings: CloudSettings): Promise<ProviderStatus> {
    if (!this.webhooks.configured) throw notConfigured();
    await this.deps.mayConnect?.(workspaceId);
    const { phoneNumberId, businessAccountId, accessToken } = settings;
    const fields = await this.graph.phoneNumber(accessToken, phoneNumberId).catch((error: unknown) => {
      throw connectFailure(error, 'number');
    });
    await this.graph.approvedTemplates(accessToken, businessAccountId).catch((error: unknown) => {
      throw connectFailure(error, 'account');
    });
    try {
      await this.accounts.save(workspaceId, {
        phoneNumberId,
        businessAccountId,
        accessTokenEnc: this.deps.secrets.seal(accessToken, tokenContext(workspaceId)),
        ...fields,
      });
    } catch (error) {
      if (error instanceof NumberTakenError) throw conflict(CLOUD_NUMBER_TAKEN, 'WHATSAPP_CLOUD_NUMBER_TAKEN');
      throw error;
    }
    return this.status(workspaceId);
  }

  /**
   * Forgets the number; what was still queued fails with the reason, in the same transaction (nothing would
   * ever send it, and a phone linked later must not send it unasked). A send already at Meta when this runs is
   * marked sent after all once Meta's id comes back (CloudReceipts.identified).
   */
  async disconnect(workspaceId: string): Promise<void> {
    await this.deps.sql.begin(async (tx) => {
      if (await this.accounts.remove(workspaceId, tx)) await this.messages.failPending(tx, workspaceId, CLOUD_DISCONNECTED_UNSENT);
    });
  }

  handleOf(address: string): string | null {
    const digits = /^\+?(\d{6,20})(@s\.whatsapp\.net)?$/.exec(address.trim());
    return digits ? `+${digits[1]}` : null;
  }

  /** The customer-service window for a chat: open until 24 hours after the customer's last message. */
  async window(workspaceId: string, jid: string): Promise<{ open: boolean; closesAt: Date | null }> {
    const chat = await this.messages.findChatByJid(workspaceId, jid);
    const last = chat ? await this.accounts.lastIncomingAt(chat.id) : null;
    if (!last) return { open: false, closesAt: null };
    const closesAt = new Date(last.getTime() + CLOUD_WINDOW_MS);
    return { open: closesAt.getTime() > Date.now(), closesAt };
  }

  /** Free text (or media) to a chat: refused once the window has closed, else queued and delivered. */
  async queueFree(workspaceId: string, jid: string, text: string, origin: 'app' | 'ai', clientId: string | null, content: CloudContent | null = null) {
    await this.connected(workspaceId);
    checkPhoneJid(jid);
    if (!(await this.window(workspaceId, jid)).open) throw windowClosed();
    const message = await this.outbound.store(workspaceId, jid, { body: text, origin, clientId, cloudContent: content, media: mediaInfoOf(content) });
    void this.deliver(workspaceId);
    return message;
  }

  /** An approved template (allowed whatever the window): its body with the variables is what the inbox shows. */
  async queueTemplate(workspaceId: string, send: TemplateSend) {
    checkPhoneJid(send.jid);
    const template = (await this.templates(workspaceId)).find((t) => t.name === send.name && t.language === send.language);
    if (!template) throw badRequest('Esa plantilla no existe o no está aprobada', 'WHATSAPP_CLOUD_UNKNOWN_TEMPLATE');
    if (send.variables.length !== template.variables) {
      throw badRequest(`La plantilla necesita ${template.variables} ${template.variables === 1 ? 'variable' : 'variables'}`, 'VALIDATION_ERROR');
    }
    const content: CloudContent = { type: 'template', name: send.name, language: send.language, variables: send.variables };
    const message = await this.outbound.store(workspaceId, send.jid, {
      body: renderTemplate(template.body, send.variables),
      origin: send.origin,
      clientId: send.clientId,
      cloudContent: content,
    });
    void this.deliver(workspaceId);
    return message;
  }

  async templates(workspaceId: string): Promise<CloudTemplate[]> {
    const account = await this.connected(workspaceId);
    const token = this.deps.secrets.open(account.accessTokenEnc, tokenContext(workspaceId));
    const found = await this.graph.approvedTemplates(token, account.businessAccountId).catch((error: unknown) => {
      throw callFailure(error);
    });
    return found.map((t) => {
      const body = t.components.find((c) => c.type === 'BODY')?.text ?? '';
      return { name: t.name, language: t.language, category: t.category, body, variables: variablesOf(body) };
    });
  }

  /** The port's send: queued like any send, then waited for until Meta gave it its id (or refused it). */
  async send(workspaceId: string, message: OutgoingMessage): Promise<SentMessage> {
    const jid = jidOfHandle(this.handleOf(message.handle) ?? badHandle());
    let content: CloudContent | null = null;
    let text = '';
    if (message.content.kind === 'text') text = message.content.text.trim();
    else content = await this.upload(workspaceId, message.content.media);
    if (!text && !content) throw badRequest('Escribe un mensaje', 'VALIDATION_ERROR');
    if (content && 'caption' in content) text = content.caption ?? '';
    const queued = await this.queueFree(workspaceId, jid, text, 'app', message.clientId, content);
    const sent = await this.settled(workspaceId, queued.id);
    return { id: sent.waId, handle: `+${jid.split('@')[0]!}`, at: sent.sentAt };
  }

  /** Sends what the workspace has queued (here, unless another replica is at it). */
  deliver(workspaceId: string): Promise<void> {
    return this.delivery.deliver(workspaceId);
  }

  private async upload(workspaceId: string, media: Media): Promise<CloudContent> {
    const account = await this.connected(workspaceId);
    if (!media.data) throw badRequest('Falta el archivo que enviar', 'VALIDATION_ERROR');
    const token = this.deps.secrets.open(account.accessTokenEnc, tokenContext(workspaceId));
    const mediaId = await this.graph.upload(token, account.phoneNumberId, { data: media.data, mimeType: media.mimeType, fileName: media.fileName }).catch((error: unknown) => {
      throw callFailure(error);
    });
    switch (media.kind) {
      case 'audio':
        return { type: 'audio', mediaId };
      case 'document':
        return { type: 'document', mediaId, caption: media.caption, fileName: media.fileName };
      default:
        return { type: media.kind, mediaId, caption: media.caption };
    }
  }

  private async connected(workspaceId: string): Promise<CloudAccountRow> {
    const account = await this.accounts.find(workspaceId);
    if (!account) throw notConnected();
    return account;
  }

  /** Until the queued message left (Meta's id in place) or failed. */
  private async settled(workspaceId: string, id: string) {
    const deadline = Date.now() + this.timing.sendWaitMs;
    for (;;) {
      const row = await this.messages.findMessage(workspaceId, id);
      if (!row) throw notConnected();
      if (row.status === 'failed') throw new AppError(409, 'WHATSAPP_CLOUD_REFUSED', (await this.messages.errorOf(id)) ?? 'WhatsApp no aceptó el mensaje');
      if (row.status !== 'pending') return row;
      if (Date.now() > deadline) throw unreachable();
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }
}

function badHandle(): never {
  throw badRequest(CLOUD_PHONES_ONLY, 'VALIDATION_ERROR');
}

function checkPhoneJid(jid: string): void {
  if (!/^\d{6,20}@s\.whatsapp\.net$/.test(jid)) throw badRequest(CLOUD_PHONES_ONLY, 'VALIDATION_ERROR');
}

/** The stored message's media summary (as the socket's media is kept: kind, size, caption). */
function mediaInfoOf(content: CloudContent | null) {
  if (!content || content.type === 'text' || content.type === 'template') return null;
  return { kind: content.type, size: null, caption: 'caption' in content ? content.caption : null };
}
