import type { Readable } from 'node:stream';
import { AppError, notFound, type Logger } from '@asistente/kit';
import type { AccountRow } from './account.js';
import type { Credentials } from './credentials.js';
import type { Mailbox, MailboxProvider } from './mailbox.js';

/** Downloads of one account at once, each on a connection of its own: servers cap connections per account. */
const PER_ACCOUNT = 2;
/** Requests of 512 KB: a 60 MB attachment in ~120 round trips instead of ~1,000 of 64 KB. */
const CHUNK_BYTES = 512 * 1024;

export interface PartOnServer {
  account: AccountRow;
  /** The folder's path on the server. */
  path: string;
  uid: number;
  /** The mailbox's name for the part (IMAP's body part number). */
  part: string;
}

/**
 * A big mail's attachment streamed from the server as the client reads it: imapflow asks for one chunk at
 * a time, decodes it and waits while the response is not drained, so the attachment is never whole in
 * memory. The connection is the download's own (the account's queue stays free for syncs), closed when the
 * stream ends, fails, or the client goes away.
 */
export class AttachmentDownloads {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly credentials: Credentials,
    private readonly log: Logger,
    private readonly mailboxes: MailboxProvider,
  ) {}

  async open({ account: row, path, uid, part }: PartOnServer): Promise<Readable> {
    const running = this.running.get(row.id) ?? 0;
    if (running >= PER_ACCOUNT) {
      throw new AppError(429, 'DOWNLOADS_BUSY', 'Ya hay descargas en curso de esta cuenta: espera a que terminen e inténtalo de nuevo');
    }
    this.running.set(row.id, running + 1);
    let mailbox: Mailbox | undefined;
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      const left = (this.running.get(row.id) ?? 1) - 1;
      if (left > 0) this.running.set(row.id, left);
      else this.running.delete(row.id);
      if (mailbox) await mailbox.close();
    };
    try {
      const account = await this.credentials.open(row);
      mailbox = await this.mailboxes.open(account, this.log);
      // Downloading never marks the mail read or changes anything else on the server.
      const content = await mailbox.download(path, uid, part, CHUNK_BYTES);
      if (!content) throw notFound('Adjunto no encontrado');
      // A failure mid-download reaches the response too (it is cut); this keeps one that comes before the
      // response listens from being an uncaught error.
      content.on('error', (error: unknown) => this.log.warn({ err: error, accountId: row.id }, 'attachment download failed'));
      content.once('close', () => void finish());
      return content;
    } catch (error) {
      await finish();
      throw error;
    }
  }
}
