import { createHash, randomUUID } from 'node:crypto';
import type { EmailSent } from '@asistente/contracts';
import { AppError, type TransactionSql } from '@asistente/kit';
import type { SendRequestsRepository } from './send-requests.repository.js';

/** One send as the sender carries it out. */
export interface SendTicket {
  /** The mail's id (and Message-ID), the same for every attempt with one key. */
  readonly sentId: string;
  /** Set once the SMTP server accepted the mail: from then on the key never sends again, whatever fails next. */
  accepted: boolean;
  /** Records the send as done, in the transaction that stores it. */
  done(tx: TransactionSql): Promise<void>;
}

/** How long a retry waits for the first attempt with its key (on this or another replica) to end. */
const WAIT_MS = 15_000;
const POLL_MS = 100;

/**
 * At most one send per Idempotency-Key, whichever replica gets each attempt: the key's row is claimed before
 * the SMTP server is asked, a retry of a finished send answers its result, a retry of one in flight waits for
 * it. A send whose process died after the SMTP server accepted it (or mid-way) stays claimed: repeating it
 * could deliver it twice, so the retry is told to look in Enviados instead.
 */
export class SendOnce {
  constructor(private readonly requests: SendRequestsRepository) {}

  async run(userId: string, key: string | undefined, request: unknown, send: (ticket: SendTicket) => Promise<EmailSent>): Promise<EmailSent> {
    if (key === undefined) return send({ sentId: randomUUID(), accepted: false, done: async () => {} });
    const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const sentId = await this.requests.claim(userId, key, fingerprint);
      if (sentId) return this.first(userId, key, sentId, send);
      const existing = await this.requests.find(userId, key);
      // Gone: the first attempt failed before sending and freed the key; this one claims it.
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint) {
        throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED', 'Esta clave de idempotencia ya se usó para otro envío');
      }
      if (existing.state === 'sent') return { success: true, messageId: existing.sentId };
      if (Date.now() > deadline) {
        throw new AppError(409, 'EMAIL_SEND_IN_PROGRESS', 'Este correo ya se está enviando: revisa la carpeta Enviados antes de repetirlo');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async first(userId: string, key: string, sentId: string, send: (ticket: SendTicket) => Promise<EmailSent>): Promise<EmailSent> {
    const ticket: SendTicket = { sentId, accepted: false, done: (tx) => this.requests.markSent(tx, userId, key) };
    try {
      return await send(ticket);
    } catch (error) {
      if (!ticket.accepted) await this.requests.forget(userId, key).catch(() => undefined);
      throw error;
    }
  }
}
