import { runAsNoOne, type Logger, type SecretBox } from '@asistente/kit';
import type { CloudAccountRow, CloudAccountsRepository } from '../../domain/cloud-accounts.repository.js';
import { contentOf } from '../../domain/cloud-content.js';
import type { MessagesRepository } from '../../domain/messages.repository.js';
import type { OutboundService, PendingSend } from '../../domain/outbound.service.js';
import { CLOUD_PHONES_ONLY, sendRefusal } from './cloud-errors.js';
import type { CloudReceipts } from './cloud-receipts.js';
import { GraphError, type GraphClient } from './graph-client.js';
import { tokenContext } from './cloud-token.js';

export interface DeliveryTiming {
  /** How long the delivery lease lasts: a replica that died while sending frees the queue after it. */
  leaseMs: number;
}

/**
 * Delivers a Cloud workspace's queued sends in the order they were stored: one replica at a time (a lease on
 * the account's row), through the same drain as the socket's queue (order, pacing of automatic answers,
 * attempts, one `whatsapp.message.sent` event). A send Meta refuses is failed with Meta's reason at once; one
 * Meta did not answer stays first in line for the next pass.
 */
export class CloudDelivery {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private closed = false;

  constructor(
    private readonly owner: string,
    private readonly accounts: CloudAccountsRepository,
    private readonly messages: MessagesRepository,
    private readonly outbound: OutboundService,
    private readonly graph: GraphClient,
    private readonly receipts: CloudReceipts,
    private readonly secrets: SecretBox,
    private readonly log: Logger,
    private readonly timing: DeliveryTiming,
  ) {}

  /** Sends what is waiting now, unless another replica is sending this account's queue (it picks this up). */
  deliver(userId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const current = this.running.get(userId);
    if (current) {
      this.again.add(userId);
      return current;
    }
    const run = runAsNoOne(() => this.run(userId))
      .catch((error: unknown) => this.log.error({ err: error }, 'whatsapp cloud delivery failed'))
      .finally(() => this.running.delete(userId));
    this.running.set(userId, run);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.running.values());
  }

  private async run(userId: string): Promise<void> {
    for (;;) {
      this.again.delete(userId);
      if (!(await this.accounts.claimDrain(userId, this.owner, this.timing.leaseMs))) return;
      try {
        const account = await this.accounts.find(userId);
        if (!account) return;
        const token = this.secrets.open(account.accessTokenEnc, tokenContext(userId));
        await this.outbound.drain(userId, (next) => this.sendOne(account, token, next), () => !this.closed);
      } finally {
        await this.accounts.releaseDrain(userId, this.owner);
      }
      // A send stored by another replica while this one held the lease was not delivered by it (its claim
      // failed): one never tried goes now; one that failed waits for the next tick.
      const next = await this.messages.nextPending(userId);
      if (this.closed || (!this.again.has(userId) && (!next || next.attempts > 0))) return;
    }
  }

  private async sendOne(account: CloudAccountRow, token: string, next: PendingSend): Promise<void> {
    const [digits, server] = next.chatJid.split('@');
    if (server !== 's.whatsapp.net' || !digits) {
      await this.messages.markFailed(next.id, CLOUD_PHONES_ONLY);
      return;
    }
    try {
      const wamid = await this.graph.send(token, account.phoneNumberId, digits, contentOf(next));
      await this.receipts.identified(account.userId, next.id, wamid);
    } catch (error) {
      // Meta answered and refused: trying again would get the same answer. The drain then skips it.
      if (error instanceof GraphError && error.failure !== 'unreachable') {
        this.log.warn({ code: error.code, status: error.status }, 'whatsapp cloud refused a send');
        await this.messages.markFailed(next.id, sendRefusal(error));
        return;
      }
      throw error;
    }
  }
}
