import type { Readable } from 'node:stream';
import type { EmailDetail, EmailList, EmailListQuery } from '@asistente/contracts';
import { AppError, CoalescedRead, notFound, type Logger } from '@asistente/kit';
import type { AccountRow } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { AttachmentDownloads } from './attachment-downloads.js';
import type { Credentials } from './credentials.js';
import { MailConnectError } from './mail-errors.js';
import { withMailbox, type MailboxProvider, type OpenFolder } from './mailbox.js';
import type { MessageRow, MessagesRepository } from './messages.repository.js';
import { parseMessage } from './parse-message.js';
import { sanitizeMailHtml, textToHtml } from './sanitize.js';
import type { SyncManager } from './sync-manager.js';

const NOT_FOUND = 'Correo no encontrado';
const NO_ATTACHMENT = 'Adjunto no encontrado';

export interface AttachmentFile {
  name: string;
  contentType: string;
  /** Kept bytes, or a stream from the server for a big mail's attachment. */
  content: Buffer | Readable;
}

/** 502 with the server's reason: the mailbox, not the request, is what failed. */
export function mailServerError(error: unknown): never {
  if (error instanceof MailConnectError) throw new AppError(502, 'MAIL_SERVER_ERROR', error.message);
  throw error;
}

/** Reading and changing the synced mail; every change is made on the server first, then here. */
export class MessagesService {
  /** The same list page asked by several clients at once (tabs, devices, refreshes) is read once for all of them. */
  private readonly pages = new CoalescedRead<EmailList>();

  constructor(
    private readonly messages: MessagesRepository,
    private readonly accounts: AccountsRepository,
    private readonly credentials: Credentials,
    private readonly sync: SyncManager,
    private readonly log: Logger,
    private readonly downloads: AttachmentDownloads,
    /** MAIL_MAX_MESSAGE_BYTES: larger mails are read in part, never whole. */
    private readonly maxMessageBytes: number,
    private readonly mailboxes: MailboxProvider,
  ) {}

  list(userId: string, query: EmailListQuery): Promise<EmailList> {
    const key = JSON.stringify([userId, query.folder, query.search ?? null, query.address ?? null, query.limit, query.page]);
    return this.pages.read(key, () => this.readPage(userId, query));
  }

  private async readPage(userId: string, query: EmailListQuery): Promise<EmailList> {
    const { rows, total, unread } = await this.messages.page(userId, {
      folder: query.folder,
      search: query.search,
      address: query.address,
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
      accountId: row.accountId,
      remoteImagesBlocked: safe.remoteImagesBlocked,
      ...(row.partial ? { partial: true } : {}),
      // The composer ends the text with a line break the owner did not type.
      ...(row.folder === 'drafts' ? { text: row.textBody.replace(/\s+$/, '') } : {}),
    };
  }

  /** The message with its body: fetched from the server and kept on first open (the sync stores summaries). */
  async find(userId: string, id: string): Promise<MessageRow> {
    const row = await this.row(userId, id);
    if (row.bodyFetched) return row;
    // A read changes nothing on the server: it need not wait behind a sync in the account's queue (a first
    // sync takes a while, and the owner opens what is already listed).
    const body = await this.onServer(row, { queued: false }, (folder) => folder.body(row.uid, this.maxMessageBytes));
    if (body && 'partial' in body) {
      await this.messages.storePartialBody(row.id, body.partial);
      return this.row(userId, id);
    }
    // Gone from the server meanwhile: what the sync stored is all there is (the next sync removes it).
    if (!body) return { ...row, textBody: row.preview };
    const parsed = await parseMessage(body.source, row.sentAt);
    if (parsed.parseError) this.log.warn({ accountId: row.accountId, uid: row.uid, reason: parsed.parseError }, 'message kept unparsed');
    await this.messages.storeBody(row.id, parsed);
    return this.row(userId, id);
  }

  /** One of the owner's drafts (404 for anything else). */
  async draft(userId: string, id: string): Promise<MessageRow> {
    const row = await this.messages.find(userId, id);
    if (!row || row.folder !== 'drafts') throw notFound('Borrador no encontrado');
    return row;
  }

  /** A sent draft leaves Drafts for good, on the server and here. */
  async discardDraft(row: MessageRow): Promise<void> {
    await this.onServer(row, { queued: true }, (folder) => folder.delete(row.uid));
    await this.messages.delete(row.id);
    await this.sync.changed(row.accountId, ['drafts']);
  }

  private async row(userId: string, id: string): Promise<MessageRow> {
    const row = await this.messages.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** A kept attachment, or a big mail's one streamed from the server over a connection of its own. */
  async attachment(userId: string, id: string, attachmentId: string): Promise<AttachmentFile> {
    const file = await this.messages.attachment(userId, id, attachmentId);
    if (!file) throw notFound(NO_ATTACHMENT);
    const { name, contentType } = file;
    if (file.content !== null) return { name, contentType, content: file.content };
    if (file.part === null) throw notFound(NO_ATTACHMENT);
    const row = await this.row(userId, id);
    const { path, account } = await this.location(row);
    const content = await this.downloads.open({ account, path, uid: row.uid, part: file.part }).catch(mailServerError);
    return { name, contentType, content };
  }

  /** Sets \Seen on the server, so the mail is read in the owner's other mail apps too. */
  async markRead(userId: string, id: string): Promise<void> {
    const row = await this.row(userId, id);
    if (row.isRead) return;
    await this.onServer(row, { queued: true }, (folder) => folder.markRead(row.uid));
    await this.messages.setRead(row.id, true);
    await this.sync.changed(row.accountId, [row.folder]);
  }

  /** To the server's Trash; from Trash (or without one), deleted for good. */
  async delete(userId: string, id: string): Promise<{ permanently: boolean }> {
    const row = await this.row(userId, id);
    const folders = await this.messages.folders(row.accountId);
    const trash = folders.get('trash')?.path;
    const permanently = row.folder === 'trash' || !trash;
    await this.onServer(row, { queued: true }, async (folder) => {
      if (permanently) {
        await folder.delete(row.uid);
        await this.messages.delete(row.id);
        return;
      }
      await this.messages.moved(row.id, 'trash', await folder.move(row.uid, trash));
    });
    await this.sync.changed(row.accountId, permanently ? [row.folder] : [row.folder, 'trash']);
    return { permanently };
  }

  /**
   * Opens the message's folder over a connection of its own; a change runs `queued` in the account's queue when
   * this replica holds it, otherwise the holder is told afterwards (`changed`) and reads the server again.
   */
  private async onServer<T>(row: MessageRow, { queued }: { queued: boolean }, task: (folder: OpenFolder) => Promise<T>): Promise<T> {
    const { path, account: accountRow } = await this.location(row);
    const run = <U>(work: () => Promise<U>) => (queued ? this.sync.serialize(row.accountId, work) : work());
    return run(async () => {
      const account = await this.credentials.open(accountRow);
      return withMailbox(this.mailboxes, account, this.log, (mailbox) => mailbox.inFolder(path, task));
    }).catch(mailServerError);
  }

  /** The message's account and its folder's path on the server. */
  private async location(row: MessageRow): Promise<{ path: string; account: AccountRow }> {
    const folders = await this.messages.folders(row.accountId);
    const path = folders.get(row.folder)?.path;
    const account = await this.accounts.byId(row.accountId);
    if (!path || !account) throw notFound(NOT_FOUND);
    return { path, account };
  }
}
