import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, type ChannelIntake, type Logger } from '@asistente/kit';
import type { CloudAccountsRepository } from '../../domain/cloud-accounts.repository.js';
import type { CloudWebhooksRepository } from '../../domain/cloud-webhooks.repository.js';
import type { CloudReceipts } from './cloud-receipts.js';
import { hasStatuses, incomingOf, messageIdsOf, partsOf, receiptsOf, type CloudChangeValue, type CloudWebhook } from './webhook-payload.js';

export interface WebhookTiming {
  /** How long a replica may take to process a claimed webhook before another takes it. */
  claimMs: number;
  /** A webhook that failed this many times is dropped (logged): it must not block the ones behind it forever. */
  maxAttempts: number;
}

const BATCH = 20;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

export const SIGNATURE_REFUSED = 'Firma del webhook no válida';

/** What a workspace's stored webhook holds: the changes of its number. */
interface StoredPart {
  values: CloudChangeValue[];
}

/**
 * The Cloud API's webhook, in two steps. `accept` runs in the request: the signature (HMAC-SHA256 of the raw
 * body with the app secret, compared in constant time), the number's workspace, the de-duplication by
 * message id, one row per workspace; then the POST is answered. `process` runs after, on any replica: it claims
 * stored rows, hands their messages and statuses to the intake, and deletes them.
 */
export class CloudWebhooks {
  private processing: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly owner: string,
    private readonly appSecret: string | undefined,
    private readonly accounts: CloudAccountsRepository,
    private readonly webhooks: CloudWebhooksRepository,
    private readonly intake: ChannelIntake,
    /** Statuses go to the intake through it: one may come before its message has Meta's id. */
    private readonly receipts: CloudReceipts,
    /** Told of each workspace whose messages were stored (its keyword answers wait to be sent). */
    private readonly received: (userId: string) => void,
    private readonly log: Logger,
    private readonly timing: WebhookTiming,
  ) {}

  get configured(): boolean {
    return this.appSecret !== undefined;
  }

  verify(raw: Buffer, header: string | undefined): boolean {
    const match = header ? SIGNATURE.exec(header.trim()) : null;
    if (!match || !this.appSecret) return false;
    const expected = createHmac('sha256', this.appSecret).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
  }

  /** Checks and stores a webhook; answers how many workspaces' parts were stored (0: nothing new or unknown number). */
  async accept(raw: Buffer, signature: string | undefined): Promise<number> {
    if (!this.appSecret) throw new AppError(503, 'WHATSAPP_CLOUD_NOT_CONFIGURED', 'Webhook no configurado');
    if (!this.verify(raw, signature)) throw new AppError(401, 'WHATSAPP_CLOUD_SIGNATURE', SIGNATURE_REFUSED);
    let webhook: CloudWebhook;
    try {
      webhook = JSON.parse(raw.toString('utf8')) as CloudWebhook;
    } catch {
      throw badRequest('El cuerpo de la petición no es un JSON válido', 'INVALID_JSON');
    }
    let stored = 0;
    for (const part of partsOf(webhook)) {
      const account = await this.accounts.findByPhoneNumberId(part.phoneNumberId);
      // A number no workspace connected (disconnected since, or another app's): acknowledged, not kept.
      if (!account) continue;
      const payload: StoredPart = { values: part.values };
      if (await this.webhooks.accept(account.userId, payload, messageIdsOf(part.values), hasStatuses(part.values))) stored++;
    }
    return stored;
  }

  /** Processes what is stored, here, now; a call while a pass runs makes it go round once more. */
  process(): Promise<void> {
    if (this.processing) {
      this.again = true;
      return this.processing;
    }
    this.processing = this.pass()
      .catch((error: unknown) => this.log.error({ err: error }, 'whatsapp cloud webhooks not processed'))
      .finally(() => {
        this.processing = undefined;
      });
    return this.processing;
  }

  private async pass(): Promise<void> {
    do {
      this.again = false;
      for (let rows = await this.claim(); rows.length > 0; rows = await this.claim()) {
        for (const row of rows) await this.processOne(row.id, row.userId, JSON.parse(row.payload) as StoredPart, row.attempts);
      }
    } while (this.again);
  }

  private claim() {
    return this.webhooks.claim(this.owner, this.timing.claimMs, BATCH);
  }

  private async processOne(id: string, userId: string, part: StoredPart, attempts: number): Promise<void> {
    try {
      const messages = incomingOf(part.values);
      // Storing again what a dead replica stored changes nothing (unique ids): this is what makes it once.
      await this.intake.received(userId, messages);
      await this.receipts.received(userId, receiptsOf(part.values));
      await this.webhooks.done(id);
      if (messages.length > 0) this.received(userId);
    } catch (error) {
      if (attempts >= this.timing.maxAttempts) {
        this.log.error({ err: error, attempts }, 'whatsapp cloud webhook dropped after repeated failures');
        await this.webhooks.done(id);
        return;
      }
      // Left claimed: another pass takes it once the claim runs out (a pause, not a tight loop of failures).
      this.log.warn({ err: error, attempts }, 'whatsapp cloud webhook not processed, will retry');
    }
  }
}
