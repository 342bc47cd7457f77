import { createEvent, type Outbox, type Sql } from '@asistente/kit';
import type { TrackingSigner } from './tracking.js';

/** Opens and clicks of sent mail: the first of each counts once, whatever the mail app reloads. */
export class TrackingService {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: Outbox,
    private readonly signer: TrackingSigner,
  ) {}

  /** Records the open when the MAC is genuine; a forged or altered one records nothing. */
  async open(sentId: string, mac: string): Promise<void> {
    if (this.signer.verifyOpen(sentId, mac)) await this.first('opened', sentId);
  }

  /** Whether the link is genuine; if so it is recorded (a click also proves the mail was opened). */
  async click(sentId: string, url: string, mac: string): Promise<boolean> {
    if (!this.signer.verifyClick(sentId, url, mac)) return false;
    await this.first('clicked', sentId);
    await this.first('opened', sentId);
    return true;
  }

  private async first(what: 'opened' | 'clicked', sentId: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      const rows =
        what === 'opened'
          ? await tx<{ userId: string }[]>`update email.sent set opened_at = now() where id = ${sentId} and opened_at is null returning user_id`
          : await tx<{ userId: string }[]>`update email.sent set clicked_at = now() where id = ${sentId} and clicked_at is null returning user_id`;
      const [row] = rows;
      if (!row) return;
      const event =
        what === 'opened'
          ? createEvent('email.message.opened', row.userId, { messageId: sentId })
          : createEvent('email.message.clicked', row.userId, { messageId: sentId });
      await this.outbox.append(tx, [event]);
    });
  }
}
