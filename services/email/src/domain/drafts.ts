import { randomUUID } from 'node:crypto';
import type { DraftSaved, SaveDraftBody } from '@asistente/contracts';
import { AppError, badRequest, notFound, type Logger } from '@asistente/kit';
import type { AccountsRepository } from './accounts.repository.js';
import type { Credentials } from './credentials.js';
import type { MailComposer } from './mail-composer.js';
import { withMailbox, type MailboxProvider } from './mailbox.js';
import type { MessagesRepository } from './messages.repository.js';
import { mailServerError, type MessagesService } from './messages.service.js';
import { parseRecipients } from './recipients.js';
import { sendingAccount } from './sending-account.js';
import type { SyncManager } from './sync-manager.js';

/**
 * Drafts live on the server, in its Drafts folder, like any mail app's: saving APPENDs a new version
 * (flagged \Draft) and removes the previous one, so the owner can continue it here or on their phone.
 */
export class DraftsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly messages: MessagesRepository,
    private readonly reader: MessagesService,
    private readonly credentials: Credentials,
    private readonly sync: SyncManager,
    private readonly log: Logger,
    private readonly mailboxes: MailboxProvider,
    private readonly composer: MailComposer,
  ) {}

  async save(userId: string, body: SaveDraftBody): Promise<DraftSaved> {
    const to = parseRecipients(body.to, false);
    const cc = parseRecipients(body.cc, false);
    const previous = body.draftId ? await this.reader.draft(userId, body.draftId) : undefined;
    const row = previous ? await this.accounts.byId(previous.accountId) : await sendingAccount(this.accounts, userId, body.accountId);
    if (!row) throw notFound('Cuenta de correo no encontrada');
    const path = (await this.messages.folders(row.id)).get('drafts')?.path;
    if (!path) throw badRequest('Esta cuenta no tiene carpeta de borradores', 'NO_DRAFTS_FOLDER');
    const messageId = `<${randomUUID()}@${row.email.split('@')[1] ?? 'localhost'}>`;
    const raw = await this.composer.compose({
      from: row.email,
      to,
      cc,
      subject: body.subject ?? '',
      text: body.body ?? '',
      messageId,
      date: new Date(),
    });
    const account = await this.credentials.open(row).catch(mailServerError);
    await this.sync
      .serialize(account.id, async () => {
        await withMailbox(this.mailboxes, account, this.log, async (mailbox) => {
          await mailbox.append(path, raw, { draft: true, read: true });
          if (previous) await mailbox.inFolder(path, (folder) => folder.delete(previous.uid));
        });
        if (previous) await this.messages.delete(previous.id);
        await this.sync.syncNow(account, ['drafts']);
      })
      .catch(mailServerError);
    const id = await this.messages.idByMessageId(account.id, 'drafts', messageId);
    if (!id) throw new AppError(502, 'MAIL_SERVER_ERROR', 'El servidor no guardó el borrador');
    return { success: true, id };
  }
}
