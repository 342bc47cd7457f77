import type { ChannelIntake, Receipt } from '@asistente/kit';
import type { CloudReceiptsRepository } from '../../domain/cloud-receipts.repository.js';

const CATCH_UP_BATCH = 100;

/**
 * Meta's statuses on their way to the intake. Meta may post a message's status before the send's own answer
 * gave the message its id (the webhook races the POST /messages answer, maybe on another replica): such a
 * status is kept, and handed to the intake once the id is stored, by the delivery that stores it or, if that
 * replica died in between, by the catch-up pass.
 */
export class CloudReceipts {
  constructor(
    private readonly repository: CloudReceiptsRepository,
    private readonly intake: ChannelIntake,
  ) {}

  /** A webhook's statuses: those whose message is known go to the intake now, the others are kept. */
  async received(userId: string, receipts: Receipt[]): Promise<void> {
    const known: Receipt[] = [];
    for (const receipt of receipts) if (!(await this.repository.keepUnlessKnown(userId, receipt))) known.push(receipt);
    await this.intake.receipts(userId, known);
  }

  /** A send Meta accepted: its id stored, then whatever Meta already said about it applied. */
  async identified(userId: string, id: string, wamid: string): Promise<void> {
    await this.repository.setProviderId(userId, id, wamid);
    const kept = await this.repository.keptFor(userId, wamid);
    if (kept.length === 0) return;
    await this.intake.receipts(userId, kept);
    await this.repository.forget(userId, wamid);
  }

  /** Kept statuses whose message got its id without them being applied; then the old ones forgotten. */
  async catchUp(): Promise<void> {
    for (const receipt of await this.repository.known(CATCH_UP_BATCH)) {
      await this.intake.receipts(receipt.userId, [{ id: receipt.id, status: receipt.status }]);
      await this.repository.forget(receipt.userId, receipt.id);
    }
    await this.repository.prune();
  }
}
