// An in-memory channel, added the way the README's "Adding a channel" says: this one file is the provider (and
// the far end its customers live on); a test registers it in the inbox with one line and runs the suite with one.
import { randomUUID } from 'node:crypto';
import {
  AppError,
  type ChannelIntake,
  type MessagingProvider,
  type OutgoingContent,
  type OutgoingMessage,
  type ProviderStatus,
  type SentMessage,
} from '@asistente/kit';
import type { DeliveredMessage, FarCustomer, MessagingHarness } from '@asistente/kit/testing';

interface Customer {
  name: string;
  inbox: DeliveredMessage[];
}

/** The far end: the customers of every workspace, and the provider that serves them. */
export class MemoryNetwork {
  readonly customers = new Map<string, Customer>();
  provider: MemoryProvider | undefined;

  /** A customer of this workspace (made on first use) who writes and reads through the network. */
  customer(workspaceId: string, address: string, name: string): FarCustomer {
    const key = `${workspaceId}/${address}`;
    const customer = this.customers.get(key) ?? { name, inbox: [] };
    this.customers.set(key, customer);
    return {
      address,
      name,
      write: (content) => this.provider!.arrived(workspaceId, address, name, content),
      received: () => Promise.resolve([...customer.inbox]),
      read: (id) => this.provider!.read(workspaceId, id),
    };
  }
}

const ADDRESS = /^[a-z][a-z0-9-]{0,39}$/;

/** A channel named `memory` whose customers are `memory:<name>`; it carries media and reports reads. */
export class MemoryProvider implements MessagingProvider<{ account: string }> {
  readonly channel = 'memory';
  readonly name = 'memory';
  readonly capabilities = { media: true, receipts: true };
  private readonly accounts = new Map<string, string>();
  private readonly sent = new Map<string, SentMessage>();

  constructor(
    private readonly intake: ChannelIntake,
    private readonly network: MemoryNetwork,
  ) {
    network.provider = this;
  }

  status(workspaceId: string): Promise<ProviderStatus> {
    const account = this.accounts.get(workspaceId);
    return Promise.resolve(account ? { state: 'connected', account, detail: null } : { state: 'disconnected', account: null, detail: 'Conecta el canal de prueba' });
  }

  connect(workspaceId: string, settings: { account: string }): Promise<ProviderStatus> {
    this.accounts.set(workspaceId, settings.account);
    return this.status(workspaceId);
  }

  disconnect(workspaceId: string): Promise<void> {
    this.accounts.delete(workspaceId);
    return Promise.resolve();
  }

  send(workspaceId: string, message: OutgoingMessage): Promise<SentMessage> {
    if (!this.accounts.has(workspaceId)) return Promise.reject(new AppError(409, 'CHANNEL_NOT_CONNECTED', 'El canal de prueba no está conectado'));
    const key = `${workspaceId}/${message.clientId}`;
    const earlier = this.sent.get(key);
    if (earlier) return Promise.resolve(earlier);
    const customer = this.network.customers.get(`${workspaceId}/${message.handle.replace(/^memory:/, '')}`);
    if (!customer) return Promise.reject(new AppError(404, 'CUSTOMER_NOT_FOUND', 'Ese cliente no está en el canal de prueba'));
    const sent = { id: randomUUID(), handle: message.handle, at: new Date() };
    this.sent.set(key, sent);
    const { content } = message;
    customer.inbox.push({
      id: sent.id,
      text: content.kind === 'text' ? content.text : null,
      media: content.kind === 'media' ? { kind: content.media.kind, caption: content.media.caption } : null,
    });
    return Promise.resolve(sent);
  }

  handleOf(address: string): string | null {
    return ADDRESS.test(address) ? `memory:${address}` : null;
  }

  /** A customer wrote: to the intake, as any provider hands it what arrives. */
  arrived(workspaceId: string, address: string, name: string, content: OutgoingContent): Promise<void> {
    const text = content.kind === 'text' ? content.text : '';
    const media = content.kind === 'media' ? content.media : null;
    const described = media && { kind: media.kind, mimeType: media.mimeType, fileName: media.fileName, caption: media.caption, size: media.size };
    return this.intake.received(workspaceId, [{ id: randomUUID(), handle: `memory:${address}`, name, text, media: described, at: new Date() }]);
  }

  read(workspaceId: string, id: string): Promise<void> {
    return this.intake.receipts(workspaceId, [{ id, status: 'read' }]);
  }
}

/** The suite's view of the in-memory channel: a network of its own, a customer called Lucía. */
export function memoryHarness(): MessagingHarness<{ account: string }> {
  const network = new MemoryNetwork();
  return {
    name: 'in-memory channel',
    capabilities: { media: true, receipts: true },
    provider: (intake) => Promise.resolve(new MemoryProvider(intake, network)),
    workspace: () => Promise.resolve(randomUUID()),
    settings: () => ({ account: 'Canal de prueba' }),
    customer: (workspaceId) => Promise.resolve(network.customer(workspaceId, 'lucia', 'Lucía Martín')),
  };
}
