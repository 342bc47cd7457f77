import type { ImapFlow } from 'imapflow';
import type { EmailDetail, EmailList, EmailListQuery } from '@asistente/contracts';
import { AppError, notFound, type Logger } from '@asistente/kit';
import { closeImap, MailConnectError, openImap } from '../adapters/imap-client.js';
import type { AccountsRepository } from './accounts.repository.js';
import { imapAuth, type Credentials } from './credentials.js';
import type { AttachmentRow, MessageRow, MessagesRepository } from './messages.repository.js';
import { sanitizeMailHtml, textToHtml } from './sanitize.js';
import type { SyncManager } from './sync-manager.js';

const NOT_FOUND = 'Correo no encontrado';

/** 502 with the server's reason: the mailbox, not the request, is what failed. */
export function mailServerError(error: unknown): never {
  if (error instanceof MailConnectError) throw new AppError(502, 'MAIL_SERVER_ERROR', error.message);
  throw error;
}

/** Reading and changing the synced mail; every change is made on the server first, then here. */
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: AccountsRepository,
    private readonly credentials: Credentials,
    private readonly sync: SyncManager,
    private readonly log: Logger,
  ) {}

  async list(userId: string, query: EmailListQuery): Promise<EmailList> {
    const { rows, total, unread } = await this.messages.page(userId, {
      folder: query.folder,
      search: query.search,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    return {
      data: rows.map((r) => ({
        id: r.id,
        from: r.fromAddr,
        to: r.toAddrs,
        subject: r.subject,
        preview: r.preview,
        isRead: r.isRead,
        createdAt: r.sentAt.toISOString(),
        hasAttachments: r.hasAttachments,
      })),
      pagination: { total, page: query.page, limit: query.limit },
      unread,
    };
  }

  async get(userId: string, id: string, allowImages: boolean): Promise<EmailDetail> {
    const row = await this.find(userId, id);
    const safe = row.htmlBody !== null ? sanitizeMailHtml(row.htmlBody, allowImages) : { html: textToHtml(row.textBody), remoteImagesBlocked: false };
    const attachments = await this.messages.attachmentsOf(row.id);
    return {
      id: row.id,
      from: row.fromAddr,
      to: row.toAddrs,
      cc: row.ccAddrs,
      subject: row.subject,
      body: safe.html,
      isRead: row.isRead,
      createdAt: row.sentAt.toISOString(),
      attachments: attachments.map((a) => ({ id: a.id, name: a.name, size: a.size, contentType: a.contentType })),
      folder: row.folder,
      remoteImagesBlocked: safe.remoteImagesBlocked,
    };
  }

  async find(userId: string, id: string): Promise<MessageRow> {
    const row = await this.messages.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async attachment(userId: string, id: string, attachmentId: string): Promise<AttachmentRow> {
    const row = await this.messages.attachment(userId, id, attachmentId);
    if (!row) throw notFound('Adjunto no encontrado');
    return row;
  }

  /** Sets \Seen on the server, so the mail is read in the owner's other mail apps too. */
  async markRead(userId: string, id: string): Promise<void> {
    const row = await this.find(userId, id);
    if (row.isRead) return;
    await this.onServer(row, async (client) => {
      await client.messageFlagsAdd(String(row.uid), ['\\Seen'], { uid: true });
    });
    await this.messages.setRead(row.id, true);
  }

  /** To the server's Trash; from Trash (or without one), deleted for good. */
  async delete(userId: string, id: string): Promise<{ permanently: boolean }> {
    const row = await this.find(userId, id);
    const folders = await this.messages.folders(row.accountId);
    const trash = folders.get('trash')?.path;
    const permanently = row.folder === 'trash' || !trash;
    await this.onServer(row, async (client) => {
      if (permanently) {
        await client.messageDelete(String(row.uid), { uid: true });
        await this.messages.delete(row.id);
        return;
      }
      const moved = await client.messageMove(String(row.uid), trash, { uid: true });
      await this.messages.moved(row.id, 'trash', moved ? moved.uidMap?.get(row.uid) : undefined);
    });
    return { permanently };
  }

  /** Opens the message's folder over a connection of its own, in the account's queue. */
  private async onServer(row: MessageRow, task: (client: ImapFlow) => Promise<void>): Promise<void> {
    const folders = await this.messages.folders(row.accountId);
    const path = folders.get(row.folder)?.path;
    const accountRow = await this.accounts.byId(row.accountId);
    if (!path || !accountRow) throw notFound(NOT_FOUND);
    await this.sync
      .serialize(row.accountId, async () => {
        const account = await this.credentials.open(accountRow);
        const client = await openImap(account.imap, imapAuth(account), this.log);
        try {
          const lock = await client.getMailboxLock(path);
          try {
            await task(client);
          } finally {
            lock.release();
          }
        } finally {
          await closeImap(client);
        }
      })
      .catch(mailServerError);
  }
}
